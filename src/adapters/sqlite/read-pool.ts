import { besideModule, WorkerRpc } from "../threads/worker-rpc.js";
import type { ReadJob, ReadJobs, ReadRequest } from "./partition-reads.js";
import type { ReadThreadData } from "./read-worker.js";

// The threads that read the monthly indexes, so no index read runs on the
// event loop. Two lanes, each a few threads with a queue of its own:
//
//   light  a browse page, documents, one article, one story's members: reads
//          that take a millisecond or so
//   heavy  keyword ranking, facets, story matching and sizing: reads that can
//          take seconds over a large month
//
// A thread takes one read at a time, so a light read waits only behind other
// light reads, never behind a heavy one. On 2 cores the heavy lane has 2
// threads (one query's months are read in parallel) and the light lane 1: the
// operating system shares the cores between all three, so a browse that
// arrives while two heavy reads run is answered within a few time slices
// rather than after them. Threads start on first use, or all at once when a
// serving process starts (start()); a query's budget counts from when its lane
// answers (ready()), not from the threads' start-up.

export type Lane = "light" | "heavy";

/**
 * The young generation of a read thread's heap, where a read's documents and lines live until it is answered. Under
 * a steady stream of reads (an export's) V8 grows it to its default limit, memory the thread then keeps: over an
 * export of 1,000,000 articles the server's RSS rose 24-39 MB with V8's default, 16-20 MB with 12 MB, while the mixed
 * load's heavy queries answered as many per second (bench/RESULTS.md, "Export").
 */
const YOUNG_GENERATION_MB = 12;

/** A read dequeued at or after the time it had to start by (its budget spent to the millisecond): it was not run. */
export const NOT_STARTED = Symbol("not started");

interface Queued {
  request: ReadRequest;
  startBy: number | undefined;
  resolve(result: unknown): void;
  reject(error: Error): void;
}

class PoolLane {
  private readonly threads: Array<WorkerRpc<ReadRequest, unknown>> = [];
  private readonly queue: Queued[] = [];

  constructor(
    private readonly name: string,
    readonly width: number,
    private readonly data: ReadThreadData,
  ) {}

  run(request: ReadRequest, startBy: number | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ request, startBy, resolve, reject });
      this.dispatch();
    });
  }

  /** Threads of the lane that answer. */
  get answering(): number {
    return this.threads.filter((thread) => thread.running && thread.answeringSince !== undefined).length;
  }

  /** Resolves once a thread of the lane answers (at once when one does), with the time it did. */
  async ready(): Promise<number> {
    const answering = this.threads.find((thread) => thread.running && thread.answeringSince !== undefined);
    if (answering === undefined) {
      if (!this.threads.some((thread) => thread.running)) this.idleThread();
      await Promise.race(this.threads.filter((thread) => thread.running).map((thread) => thread.started()));
    }
    return Date.now();
  }

  /** Starts every thread of the lane; resolves once each answers. */
  async start(): Promise<void> {
    while (this.threads.length < this.width) this.threads.push(this.newThread());
    await Promise.all(this.threads.map((thread) => thread.started()));
    this.dispatch();
  }

  async close(): Promise<void> {
    for (const queued of this.queue.splice(0)) queued.reject(new Error("the index is closed"));
    await Promise.all(this.threads.splice(0).map((thread) => thread.close()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const thread = this.idleThread();
      if (thread === undefined) return;
      const queued = this.queue.shift() as Queued;
      if (queued.startBy !== undefined && Date.now() >= queued.startBy) {
        queued.resolve(NOT_STARTED);
        continue;
      }
      thread
        .call(queued.request)
        .then(queued.resolve, queued.reject)
        .finally(() => this.dispatch());
    }
  }

  /** A thread that answers and has nothing to do; while there is none, starts one more (up to the width). */
  private idleThread(): WorkerRpc<ReadRequest, unknown> | undefined {
    const idle = this.threads.find((thread) => thread.running && thread.busy === 0 && thread.answeringSince !== undefined);
    if (idle !== undefined) return idle;
    // A thread that died is started again.
    let thread = this.threads.find((t) => !t.running);
    if (thread === undefined && this.threads.length < this.width) {
      thread = this.newThread();
      this.threads.push(thread);
    }
    // Dispatching goes on once it answers.
    thread?.started().then(
      () => this.dispatch(),
      (error: Error) => this.failQueued(error),
    );
    return undefined;
  }

  private newThread(): WorkerRpc<ReadRequest, unknown> {
    return new WorkerRpc<ReadRequest, unknown>(
      {
        module: besideModule(import.meta.url, "read-worker"),
        exportName: "serveReads",
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      },
      `index read thread (${this.name})`,
      this.data,
    );
  }

  /** No thread could start: the reads waiting fail (a later read tries again). */
  private failQueued(error: Error): void {
    for (const queued of this.queue.splice(0)) queued.reject(error);
  }
}

export class ReadPool {
  private readonly lanes: Record<Lane, PoolLane>;

  constructor(dir: string, widths: Record<Lane, number>) {
    const data: ReadThreadData = { dir };
    this.lanes = {
      light: new PoolLane("light", widths.light, data),
      heavy: new PoolLane("heavy", widths.heavy, data),
    };
  }

  /** How many reads of the lane run at once. */
  width(lane: Lane): number {
    return this.lanes[lane].width;
  }

  /**
   * Starts every thread of both lanes and resolves once they answer: a serving process does so before it takes
   * requests, so the first one does not pay for the threads' start (their time, and the memory they take).
   */
  start(): Promise<void> {
    return Promise.all([this.lanes.light.start(), this.lanes.heavy.start()]).then(() => undefined);
  }

  /** Threads of the lane that answer (started, not died since). */
  answering(lane: Lane): number {
    return this.lanes[lane].answering;
  }

  /** Resolves once the lane answers, with the time it did: a query's budget counts from then. */
  ready(lane: Lane): Promise<number> {
    return this.lanes[lane].ready();
  }

  /** Runs one read of one monthly index; NOT_STARTED when it is dequeued after `startBy` (ms since the epoch). */
  run<J extends ReadJob>(
    lane: Lane,
    request: Extract<ReadRequest, { job: J }>,
    startBy?: number,
  ): Promise<ReadJobs[J]["result"] | typeof NOT_STARTED> {
    return this.lanes[lane].run(request, startBy) as Promise<ReadJobs[J]["result"] | typeof NOT_STARTED>;
  }

  async close(): Promise<void> {
    await Promise.all([this.lanes.light.close(), this.lanes.heavy.close()]);
  }
}
