// The mixed-load row from outside: `newsindex serve` started as an operator
// would (the built CLI, its own process, real clock, real credits), a tenant
// and key per connection made with the CLI, then the mix of the scale bench's
// mixed-load row (bench/scale/query-mix.ts, MIXED_LOAD) from this process over
// loopback HTTP. The server writes its control store: point it at a copy of an
// index, never a shared one.
//
//   node --import tsx bench/mixed-load-bench.ts --data-dir DIR [--seconds 20] [--server dist/cli/main.js]
//        [--node-flags="--cpu-prof --cpu-prof-dir=DIR"] [--out bench/RESULTS.md --section NAME] [--label TEXT]
//
// --server names the CLI entry to run (another build's, to compare builds in turn). The server runs with
// NEWSINDEX_CONSOLE_PORT=off and NEWSINDEX_EMBED_IN_SERVER=off (the mix makes no semantic call; an index without
// vectors would otherwise be embedded beside the load), its other settings from this environment
// (e.g. NEWSINDEX_READ_THREADS). The event loop's utilisation over the loaded window is read through
// bench/scale/loop-usage.mjs, preloaded into the server.

import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { relative, resolve } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { parseArgs } from "node:util";
import { loadAverage, machine } from "./scale/measure.js";
import { mixedLoad } from "./scale/mixed-load.js";
import { mixedLoadLines } from "./scale/mixed-load-report.js";
import { MIXED_LOAD, MIXED_LOAD_SECONDS } from "./scale/query-mix.js";
import { writeSection } from "./scale/results-file.js";

const { values: args } = parseArgs({
  options: {
    "data-dir": { type: "string" },
    seconds: { type: "string", default: String(MIXED_LOAD_SECONDS) },
    server: { type: "string", default: new URL("../dist/cli/main.js", import.meta.url).pathname },
    "node-flags": { type: "string", default: "" },
    out: { type: "string" },
    section: { type: "string", default: "mixed-load-black-box" },
    label: { type: "string", default: "" },
  },
});
const dataDir = args["data-dir"];
if (!dataDir) throw new Error("--data-dir DIR is required (a copy of an index: the server writes its control store)");
const server = resolve(args.server);
const seconds = Number(args.seconds);
const run = promisify(execFile);

/** Runs one CLI command on the data dir; its stdout. */
async function cli(...command: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [server, ...command, "--data-dir", dataDir as string]);
  return stdout;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

// A tenant (archive plan) and key per connection: each keeps to its own per-minute credits, as separate clients do.
const stamp = Date.now().toString(36);
async function keyFor(name: string): Promise<Record<string, string>> {
  await cli("tenants", "create", `${name}-${stamp}`, "--plan", "archive");
  const issued = JSON.parse(await cli("keys", "create", "--tenant", `${name}-${stamp}`, "--json")) as { key: string };
  return { "x-api-key": issued.key };
}
const browseKeys = await Promise.all(Array.from({ length: MIXED_LOAD.browseConnections }, (_, i) => keyFor(`browse${i}`)));
const heavyKeys = await Promise.all(Array.from({ length: MIXED_LOAD.heavyConnections }, (_, i) => keyFor(`heavy${i}`)));

const port = await freePort();
const loopUsage = new URL("./scale/loop-usage.mjs", import.meta.url).pathname;
const nodeFlags = args["node-flags"].split(" ").filter((f) => f !== "");
const child = spawn(
  process.execPath,
  [...nodeFlags, "--import", loopUsage, server, "serve", "--data-dir", dataDir, "--host", "127.0.0.1", "--port", String(port)],
  {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NEWSINDEX_CONSOLE_PORT: "off", NEWSINDEX_EMBED_IN_SERVER: "off", LOG_LEVEL: "warn" },
  },
);
const stderrLines = createInterface({ input: child.stderr as NonNullable<typeof child.stderr> });
const loopReports: Array<{ eventLoopUtilization: number; activeMs: number; delayMs: { p50: number; p99: number; max: number } }> =
  [];
stderrLines.on("line", (line) => {
  if (line.startsWith('{"eventLoopUtilization"')) loopReports.push(JSON.parse(line) as (typeof loopReports)[number]);
  else process.stderr.write(`server: ${line}\n`);
});

const origin = `http://127.0.0.1:${port}`;
const readyBy = Date.now() + 120_000;
for (;;) {
  try {
    const response = await fetch(`${origin}/search?limit=1`, { headers: browseKeys[0] });
    if (response.status === 200) break;
  } catch {
    // not listening yet
  }
  if (Date.now() > readyBy || child.exitCode !== null) throw new Error("the server did not answer within 120 s");
  await new Promise((r) => setTimeout(r, 250));
}

const loadBefore = loadAverage();
const headersOf = (role: "browse" | "heavy", i: number): Record<string, string> =>
  (role === "browse" ? browseKeys[i] : heavyKeys[i]) ?? {};
let figures;
try {
  figures = await mixedLoad(origin, headersOf, MIXED_LOAD, seconds, {
    // The loaded window's event-loop utilisation: read when it starts and when it ends.
    loadedStarts: () => child.kill("SIGUSR2"),
    loadedEnds: () => child.kill("SIGUSR2"),
  });
} finally {
  await new Promise((r) => setTimeout(r, 200));
  child.kill("SIGTERM");
  await once(child, "exit");
}
const loadAfter = loadAverage();
const loop = loopReports[1];

const body = [
  `${args.label ? `${args.label}. ` : ""}Machine: ${machine()}. Load average before / after (1, 5, 15 min): ${loadBefore} → ${loadAfter}.`,
  `Command: \`node --import tsx bench/mixed-load-bench.ts --data-dir ${relative(process.cwd(), dataDir)} --seconds ${seconds}${args["node-flags"] ? ` --node-flags="${args["node-flags"]}"` : ""}\` (server: \`${relative(process.cwd(), server)} serve\`, NEWSINDEX_READ_THREADS=${process.env.NEWSINDEX_READ_THREADS ?? "default"}).`,
  "",
  ...mixedLoadLines(figures),
  "",
  `The server's event loop under load: ${loop ? `${(loop.eventLoopUtilization * 100).toFixed(0)}% busy (${(loop.activeMs / 1000).toFixed(1)} s); its delay p50 / p99 / max ${loop.delayMs.p50.toFixed(1)} / ${loop.delayMs.p99.toFixed(1)} / ${loop.delayMs.max.toFixed(1)} ms` : "not read"}.`,
].join("\n");
console.log(body);
console.log(
  JSON.stringify({
    idle: figures.idle.latency,
    loaded: figures.loaded.latency,
    heavyPerSecond: figures.heavyPerSecond,
    eventLoop: loop,
  }),
);
if (args.out)
  writeSection(args.out, args.section, `## The mixed load from outside${args.label ? ` (${args.label})` : ""}\n\n${body}`);
