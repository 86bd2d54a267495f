import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { PassFigures, PassKind } from "./ingest-pass.js";

/** Runs one ingest pass in its own process (a cold heap for each) into a fresh data dir. */
export async function ingestPass(
  kind: PassKind,
  corpusDir: string,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<PassFigures> {
  console.error(`ingesting ${kind === "clustered" ? "with" : "without"} story clustering into ${dataDir} ...`);
  const script = new URL("./ingest-pass.ts", import.meta.url).pathname;
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script, kind, corpusDir, dataDir], {
    maxBuffer: 1 << 20,
    env: { ...process.env, ...env },
  });
  const figures = JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as PassFigures;
  console.error(`  ${figures.perSecond} records/s, ${figures.cpuMicrosPerRecord} µs CPU per record`);
  return figures;
}
