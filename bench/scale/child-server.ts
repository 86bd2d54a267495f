import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface, type Interface } from "node:readline";

// Starts one of the bench servers in a child process: its first stdout line
// describes it; later lines answer commands sent on its stdin.

export interface ChildServer<T> {
  info: T;
  /** Sends a command line; resolves with the next line the child prints. */
  ask(command: string): Promise<string>;
  tell(command: string): void;
  stop(): Promise<void>;
}

/** `env` is added to this process's environment for the child (e.g. the scaled shape's NEWSINDEX_INDEX=opensearch). */
export async function startChild<T>(
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<ChildServer<T>> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", new URL(script, import.meta.url).pathname, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  const lines: Interface = createInterface({ input: child.stdout as NonNullable<ChildProcess["stdout"]> });
  const nextLine = async (): Promise<string> => ((await once(lines, "line")) as [string])[0];
  const info = JSON.parse(await nextLine()) as T;
  return {
    info,
    async ask(command) {
      const answer = nextLine();
      child.stdin?.write(`${command}\n`);
      return answer;
    },
    tell(command) {
      child.stdin?.write(`${command}\n`);
    },
    async stop() {
      lines.close();
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
