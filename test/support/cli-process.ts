import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { run } from "../../src/cli/main.js";
import { compiledSources, ROOT } from "./compiled-sources.js";

// The CLI as a user runs it: a real Node process, on the run's compiled copy of the sources (compiled-sources.ts),
// or on the sources through tsx outside the test runner.

export { ROOT };
const compiled = compiledSources();
export const CLI = compiled !== undefined ? [join(compiled, "cli/main.js")] : ["--import", "tsx", join(ROOT, "src/cli/main.ts")];

/** One command line run in process through the CLI's own entry, run(argv, io): its exit code and what it printed on each stream. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ status: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const status = await run([...args], {
    // A command that serves puts its console on a free port: tests run side by side.
    env: { ...process.env, LOG_LEVEL: "silent", NEWSINDEX_CONSOLE_PORT: "0", ...env },
    out: (text) => stdout.push(`${text}\n`),
    err: (text) => stderr.push(`${text}\n`),
  });
  return { status, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** A CLI process, with what it printed so far. */
export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once the process is gone: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnCli(args: readonly string[], env: Record<string, string> = {}): CliProcess {
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    // A served process does not embed in the background unless a test asks: the model's CPU would slow the others.
    // Its console listens on a free port: tests run side by side. No balancer checks it, so a SIGTERM stops it at
    // once (serve-drain.test.ts sets the notice it tests).
    env: {
      ...process.env,
      LOG_LEVEL: "silent",
      NEWSINDEX_EMBED_IN_SERVER: "off",
      NEWSINDEX_CONSOLE_PORT: "0",
      NEWSINDEX_DRAIN_SECONDS: "0",
      ...env,
    },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

/** Polls `ready` every `everyMs` until it holds; fails with `describe()` after `timeoutMs` or when `alive()` stops. */
export async function waitUntil(
  ready: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; everyMs?: number; alive?: () => boolean; describe: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while (!(await ready())) {
    if (Date.now() > deadline || (options.alive && !options.alive())) throw new Error(options.describe());
    await new Promise((r) => setTimeout(r, options.everyMs ?? 20));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
