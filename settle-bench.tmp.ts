// reserve + settle pairs on a fresh SQLite control store: the per-call bookkeeping.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const root = process.argv[2]!;
const { SqliteControlStore } = await import(join(root, "src/adapters/sqlite/control-store.ts"));
const dir = mkdtempSync(join(tmpdir(), "settle-bench-"));
const store = new SqliteControlStore(join(dir, "control.db"));
const tenant = await store.createTenant("bench", "scale");
const rates = { creditsPerMinute: 1e9 };
const N = 20000;
const t0 = process.hrtime.bigint();
for (let i = 0; i < N; i++) {
  const nowMs = 1_800_000_000_000 + i;
  await store.reserve({ tenantId: tenant.id, period: "202611", nowMs, rates, credits: 3, monthlyCap: null, minuteNeeded: 3, holdId: `h${i}` });
  await store.settle({ holdId: `h${i}`, tenantId: tenant.id, period: "202611", credits: 3, operation: "GET /search" }, 1, rates, nowMs);
}
const us = Number(process.hrtime.bigint() - t0) / 1000 / N;
console.log(`${root}: ${us.toFixed(1)} µs per reserve+settle (N=${N})`);
await store.close();
rmSync(dir, { recursive: true, force: true });
