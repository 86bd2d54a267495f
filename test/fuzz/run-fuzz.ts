import { cpus, totalmem } from "node:os";
import { parseArgs } from "node:util";
import { runFuzz, startFuzzTarget } from "./fuzz-harness.js";

// `npm run fuzz`: the long fuzz run, by default 100,000 requests (50,000
// generated calls, each over REST and over MCP). Prints a summary in
// Markdown; a broken property prints fast-check's seed and path to replay it
// and exits 1.
//   npm run fuzz -- --requests 100000 --seed 18

const { values } = parseArgs({
  options: { requests: { type: "string", default: "100000" }, seed: { type: "string", default: "18" } },
});
const requests = Number(values.requests);
const seed = Number(values.seed);
if (!Number.isInteger(requests) || requests < 2 || !Number.isInteger(seed)) {
  console.error("usage: npm run fuzz -- [--requests N (>= 2)] [--seed INTEGER]");
  process.exit(2);
}

const cases = Math.ceil(requests / 2);
const target = await startFuzzTarget();
const started = performance.now();
let exitCode = 0;
try {
  const stats = await runFuzz(target, {
    seed,
    cases,
    onProgress: (s) => console.error(`${s.cases}/${cases} calls, ${((performance.now() - started) / 1000).toFixed(0)} s`),
  });
  const seconds = (performance.now() - started) / 1000;
  const rows = (counts: Record<string, number>): string =>
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `| ${name} | ${n} |`)
      .join("\n");
  console.log(`# Fuzz run

Command: \`npm run fuzz -- --requests ${requests} --seed ${seed}\`
Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}
Result: every property held (no 5xx; only spec statuses; every 4xx with a spec code and a detail; refusals never charged; REST and MCP gave the same status and code for the same arguments).

Generated calls: ${stats.cases}; requests: ${stats.requests} (each call over REST and over MCP); wall time ${seconds.toFixed(0)} s (${(stats.requests / seconds).toFixed(0)} requests/s).

| Operation | Calls |
|---|---|
${rows(stats.byOperation)}

| Outcome (both doors) | Count |
|---|---|
${rows(stats.byStatus)}
`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await target.close();
}
process.exit(exitCode);
