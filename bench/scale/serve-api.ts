// The API over an existing data dir, in its own process so the load generator
// does not share its event loop. Prints {"port", "key"} on stdout once
// listening. The index's search is timed inside this process too: a "stats"
// line on stdin answers with the p50/p99 of the calls since the last "reset"
// (the engine's time as the API sees it, under the same load).
//   node --import tsx bench/scale/serve-api.ts DATA_DIR
// The server's settings come from the environment, as for `newsindex serve`
// (e.g. NEWSINDEX_READ_THREADS); the data dir and a silent log are fixed here.

import { createInterface } from "node:readline";
import { loadConfig } from "../../src/config/config.js";
import { createContainer } from "../../src/container.js";
import { buildApp } from "../../src/http/app.js";
import { DOCS_DIR } from "../../src/serve.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { createLogger } from "../../src/shared/logger.js";
import { summarise } from "./measure.js";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: serve-api.ts DATA_DIR");
// The archive plan allows 3,000 credits a minute; the load generator asks far
// more. The server's clock runs 1,000 times fast, so the per-minute bucket
// refills in time; every call still takes the full path (key, reservation,
// charge), and nothing else here depends on the clock (no window on archive).
const started = Date.now();
const fastClock = { now: () => started + (Date.now() - started) * 1000 };
const container = createContainer(loadConfig(process.env, { dataDir, logLevel: "silent" }), fastClock);

let samples: number[] = [];
const search = container.index.search.bind(container.index);
container.index.search = async (query) => {
  const t = performance.now();
  const result = await search(query);
  samples.push(performance.now() - t);
  return result;
};

const { key } = await container.accounts.issueKey(`bench-${Date.now()}`, "archive");
const app = await buildApp({ operations: OPERATIONS, deps: container, logger: createLogger("silent"), docsDir: DOCS_DIR });
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === "object" && address ? address.port : 0, key }));

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line === "reset") samples = [];
  if (line === "stats") console.log(JSON.stringify(summarise(samples)));
});
process.on("SIGTERM", () => {
  void app
    .close()
    .then(() => container.close())
    .then(() => process.exit(0));
});
