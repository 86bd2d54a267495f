// Where a command's output goes and what it reads from the environment: the
// process's own streams when run as `newsindex`, a test's buffers in process.

export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** A line (or lines) of the command's result, on stdout. */
  out(text: string): void;
  /** A line (or lines) of progress, warnings and errors, on stderr. */
  err(text: string): void;
  /** Progress bars draw on this stream when it is a terminal; lines are written otherwise. */
  progress?: NodeJS.WriteStream | undefined;
  /** Called once `serve` or `start` is listening, with the shutdown a signal would run (without exiting). */
  serving?(stop: () => Promise<void>): void;
}

export const PROCESS_IO: CliIo = {
  env: process.env,
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  progress: process.stderr.isTTY ? process.stderr : undefined,
};
