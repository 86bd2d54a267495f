// The mixed-load row of the scale benchmark on its own, over an index an
// earlier `npm run bench` built: starts the API (serve-api.ts) in a child
// process with the given Node flags, runs the mixed load once and prints the
// browse latency idle and under load. With --cpu-prof the child writes one
// profile per thread (the event loop and each read thread) when it stops.
//   node --import tsx bench/scale/profile-mixed-load.ts DATA_DIR [--cpu-prof --cpu-prof-dir=DIR]

import { spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { mixedLoad } from "./mixed-load.js";
import { MIXED_LOAD, MIXED_LOAD_SECONDS } from "./query-mix.js";

const [dataDir, ...nodeFlags] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: profile-mixed-load.ts DATA_DIR [node flags]");
const server = new URL("./serve-api.ts", import.meta.url).pathname;
const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", server, dataDir], { stdio: ["pipe", "pipe", "inherit"] });
const lines = createInterface({ input: child.stdout });
const [first] = (await once(lines, "line")) as [string];
const api = JSON.parse(first) as { port: number; key: string };
try {
  const figures = await mixedLoad(
    `http://127.0.0.1:${api.port}`,
    () => ({ "x-api-key": api.key }),
    MIXED_LOAD,
    MIXED_LOAD_SECONDS,
  );
  console.log(
    JSON.stringify({ idle: figures.idle.latency, loaded: figures.loaded.latency, heavyPerSecond: figures.heavyPerSecond }),
  );
} finally {
  // SIGTERM lets the server close and exit, so the profiles are written.
  child.kill("SIGTERM");
  await once(child, "exit");
}
