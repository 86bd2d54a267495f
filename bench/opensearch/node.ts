import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";

// A real single-node OpenSearch for the side-by-side bench, started with the
// shared recipe (opensearch-up.sh: assembles the node from Maven Central
// artifacts, runs it as a non-root user, daemonised, on loopback) and stopped
// by its pid.

export interface OpenSearchNode {
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

export interface NodeOptions {
  script: string;
  javaHome: string;
  /** The node's directory (distribution, data, logs, pid file). */
  base: string;
  port: number;
  heap: string;
}

const RECIPE = join("shared", "opensearch", "opensearch-up.sh");

/**
 * The recipe script: `override` when given, else `shared/opensearch/opensearch-up.sh` beside the repository
 * (`../shared/...` in a clean clone) or beside one of its parent directories (a worktree nested deeper).
 */
export function findUpScript(repoRoot: string, override?: string): string | undefined {
  if (override) {
    const path = resolve(repoRoot, override);
    if (!existsSync(path)) throw new Error(`--opensearch-up ${override}: no such file`);
    return path;
  }
  for (let dir = dirname(resolve(repoRoot)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, RECIPE))) return join(dir, RECIPE);
    if (dirname(dir) === dir) return undefined;
  }
}

async function portFree(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  try {
    await once(server, "listening");
    return true;
  } catch {
    return false;
  } finally {
    server.close();
  }
}

/** The first port from `from` where both the HTTP port and its transport port (+100) are free. */
export async function freePort(from: number): Promise<number> {
  for (let port = from; port < from + 50; port++) if ((await portFree(port)) && (await portFree(port + 100))) return port;
  throw new Error(`no free port pair between ${from} and ${from + 50}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pidOf(base: string): number | undefined {
  const file = join(base, "os.pid");
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, "utf8").trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Stops the node whose pid file is in `base`, if it runs from `base` (a node this bench started); waits until it is gone. */
export async function stopNode(base: string): Promise<void> {
  const pid = pidOf(base);
  if (pid === undefined || !alive(pid)) return;
  const cmdline = existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
  if (!cmdline.includes(base)) return;
  process.kill(pid, "SIGTERM");
  for (let i = 0; i < 600 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (alive(pid)) process.kill(pid, "SIGKILL");
}

export async function startNode(options: NodeOptions): Promise<OpenSearchNode> {
  // A node left running from this directory by an interrupted run would hold the files the recipe replaces.
  await stopNode(options.base);
  const recipe = spawn("bash", [options.script], {
    env: {
      ...process.env,
      BASE: options.base,
      PORT: String(options.port),
      HEAP: options.heap,
      JAVA_HOME_OS: options.javaHome,
    },
    // The daemon itself writes to its own console.log; the recipe's few lines go to our stderr.
    stdio: ["ignore", 2, 2],
  });
  const [code] = (await once(recipe, "exit")) as [number | null];
  const pid = pidOf(options.base);
  const node: OpenSearchNode = {
    origin: `http://127.0.0.1:${options.port}`,
    pid: pid ?? 0,
    stop: () => stopNode(options.base),
  };
  if (code !== 0 || pid === undefined) {
    await node.stop();
    throw new Error(`${options.script} exited with ${code}; see ${join(options.base, "console.log")}`);
  }
  return node;
}
