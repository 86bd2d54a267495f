// The API over an existing data dir for the soak, in its own process so the
// load generator does not share its event loop. Prints {"port", "key"} once
// listening; each "sample" line on stdin answers with one JSON line: memory
// (process.memoryUsage) and the event loop's delay since the last sample
// (perf_hooks.monitorEventLoopDelay, reset after each). The figures leave
// through this pipe only: the server itself serves no extra endpoint.
//   node --import tsx bench/soak/soak-server.ts DATA_DIR

import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { loadConfig } from "../../src/config/config.js";
import { createContainer } from "../../src/container.js";
import { buildApp } from "../../src/http/app.js";
import { closeApp } from "../../src/http/close-app.js";
import { DOCS_DIR } from "../../src/serve.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { createLogger } from "../../src/shared/logger.js";

export interface ServerSample {
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  /** Event-loop delay since the previous sample, ms. */
  loopDelay: { p50: number; p99: number; max: number };
}

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: soak-server.ts DATA_DIR");
// The archive plan allows 3,000 credits a minute, and the soak asks more. As in
// the scale bench (bench/scale/serve-api.ts), the server's clock runs 1,000
// times fast so the per-minute bucket refills in time: every call still takes
// the whole path (key, reservation, charge) and archive has no history window.
const started = Date.now();
const fastClock = { now: () => started + (Date.now() - started) * 1000 };
const container = createContainer(loadConfig({}, { dataDir, logLevel: "silent" }), fastClock);
const { key } = await container.accounts.issueKey(`soak-${Date.now()}`, "archive");
const app = await buildApp({ operations: OPERATIONS, deps: container, logger: createLogger("silent"), docsDir: DOCS_DIR });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const MiB = 2 ** 20;
const ms = (ns: number): number => Math.round(ns / 1e4) / 100;

console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0, key }));

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line !== "sample") return;
  const memory = process.memoryUsage();
  const sample: ServerSample = {
    rssMiB: memory.rss / MiB,
    heapUsedMiB: memory.heapUsed / MiB,
    heapTotalMiB: memory.heapTotal / MiB,
    externalMiB: memory.external / MiB,
    loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
  };
  delay.reset();
  console.log(JSON.stringify(sample));
});
process.on("SIGTERM", () => {
  void closeApp(app, 2_000)
    .then(() => container.close())
    .then(() => process.exit(0));
});
