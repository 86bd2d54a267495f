import { parentPort, Worker, workerData, type ResourceLimits } from "node:worker_threads";

// One way to run work on a thread of its own, shared by the index writer, the
// story clustering thread and the read pool: the calling side sends a request
// and gets a promise of its reply; the thread's side answers its requests one
// at a time, in the order sent. A thread holds the process open only while a
// call is under way; its death (or close) fails every call still waiting,
// and the next call starts it again.

/** A module run on a thread: the URL of its module and the function it exports that serves the thread's requests. */
export interface ThreadEntry {
  module: string;
  exportName: string;
  /** The thread's heap limits (V8's defaults when not given). */
  resourceLimits?: ResourceLimits;
}

/**
 * `name` beside the module at `here` (its `import.meta.url`): the built `.js` in production, the TypeScript source
 * under tsx and in tests.
 */
export function besideModule(here: string, name: string): string {
  return new URL(`./${name}${here.endsWith(".ts") ? ".ts" : ".js"}`, here).href;
}

type Reply<R> = { id: number; result: R } | { id: number; error: string };

export class WorkerRpc<Req, Res> {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(result: Res): void; reject(error: Error): void }>();
  private ready: Promise<void> | undefined;
  /** When the thread began answering (ms since the epoch); undefined until it has. */
  private readyAt: number | undefined;

  /** Started on the first call; `data` reaches the thread as its `workerData`. */
  constructor(
    private readonly entry: ThreadEntry,
    private readonly name: string,
    private readonly data?: unknown,
  ) {}

  /** Calls under way. */
  get busy(): number {
    return this.pending.size;
  }

  /** When the running thread began answering; undefined while it starts (or before it is started). */
  get answeringSince(): number | undefined {
    return this.readyAt;
  }

  /** The thread is running (or starting). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** Starts the thread when it is not running; resolves once it answers, rejects when it dies first. */
  started(): Promise<void> {
    this.start();
    return this.ready as Promise<void>;
  }

  call(request: Req): Promise<Res> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Res>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Kept alive only while a call is under way, so an idle thread never holds the process open.
      worker.ref();
      worker.postMessage({ id, request });
    });
  }

  /** Sends `last` (when given, and the thread is running) so the thread can finish its work, then stops it. */
  async close(last?: Req): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    try {
      if (last !== undefined) await this.call(last);
    } finally {
      this.failAll(worker, new Error(`${this.name} was closed`));
      await worker.terminate();
    }
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = spawn(this.entry, this.data);
    this.readyAt = undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.once("message", () => {
        this.readyAt = Date.now();
        if (this.pending.size === 0) worker.unref();
        resolve();
      });
      worker.once("exit", (code) => reject(new Error(`${this.name} exited (code ${code}) as it started`)));
    });
    // A thread that never starts is reported to whoever waits for it, and to every call.
    this.ready.catch(() => undefined);
    worker.on("message", (reply: Reply<Res> | { ready: true }) => {
      if ("ready" in reply) return;
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if ("error" in reply) waiting?.reject(new Error(reply.error));
      else waiting?.resolve(reply.result);
    });
    worker.on("error", (error) => this.failAll(worker, error));
    worker.on("exit", (code) => this.failAll(worker, new Error(`${this.name} exited (code ${code})`)));
    // Held open while it starts (someone waits for it), then only while a call is under way.
    this.worker = worker;
    return worker;
  }

  private failAll(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.readyAt = undefined;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/** TypeScript sources under `sources` run on threads from their compiled copy under `compiled` (undefined: tsx). */
let compiledCopy: { sources: string; compiled: string } | undefined;

/**
 * Threads started on a TypeScript source under `sources` run its compiled `.js` under `compiled` (the same tree)
 * instead of loading it through tsx, whose module hooks cost each thread about half a second of CPU. The test
 * runner compiles its sources once per run and sets this (test/support/compiled-sources.ts).
 */
export function runThreadsCompiled(sources: URL, compiled: URL): void {
  compiledCopy = { sources: sources.href, compiled: compiled.href };
}

/** The module a thread loads for `module`: its compiled copy when runThreadsCompiled has one, else itself. */
export function threadModule(module: string): string {
  if (compiledCopy === undefined || !module.endsWith(".ts") || !module.startsWith(compiledCopy.sources)) return module;
  return `${compiledCopy.compiled}${module.slice(compiledCopy.sources.length, -".ts".length)}.js`;
}

/** Runs the entry's module on a new thread: built `.js` directly, TypeScript sources through tsx's loader. */
function spawn(entry: ThreadEntry, data: unknown): Worker {
  const module = threadModule(entry.module);
  const start = `import(${JSON.stringify(module)}).then((m) => m[${JSON.stringify(entry.exportName)}]())`;
  const code = module.endsWith(".ts") ? `import("tsx/esm/api").then((tsx) => { tsx.register(); return ${start}; })` : start;
  return new Worker(code, {
    eval: true,
    workerData: data,
    ...(entry.resourceLimits ? { resourceLimits: entry.resourceLimits } : {}),
  });
}

/**
 * The thread's side: answers each request with `handle`'s result, one at a time in the order received. A handler
 * that throws answers that request with the error's message.
 */
export function serveRequests<Req, Res>(handle: (request: Req) => Res | Promise<Res>): void {
  const port = parentPort;
  if (port === null) throw new Error("serveRequests runs on a worker thread");
  let queue = Promise.resolve();
  port.on("message", ({ id, request }: { id: number; request: Req }) => {
    queue = queue.then(async () => {
      let reply: Reply<Res>;
      try {
        reply = { id, result: await handle(request) };
      } catch (error) {
        reply = { id, error: error instanceof Error ? error.message : String(error) };
      }
      port.postMessage(reply);
    });
  });
  // The first message says the thread is up: its modules are loaded and it answers.
  port.postMessage({ ready: true });
}

/** The `workerData` the thread was started with. */
export function threadData<T>(): T {
  return workerData as T;
}
