import { Pool } from "undici";
import type { MixEntry } from "./soak-mix.js";

// Drives requests at a fixed rate, whatever the server's answers take (an open
// loop: a slow answer does not hold back the next request, so a stall shows in
// the latencies instead of lowering the load). Each latency runs from the
// moment the request was due to the end of its body, so time spent queued
// behind a stall counts too.

export interface WindowStats {
  requests: number;
  errors: number;
  /** Non-2xx statuses and failures, by status or error name. */
  errorKinds: Record<string, number>;
  latencies: number[];
  byKind: Map<string, number[]>;
}

export function emptyWindow(): WindowStats {
  return { requests: 0, errors: 0, errorKinds: {}, latencies: [], byKind: new Map() };
}

export interface OpenLoopOptions {
  origin: string;
  headers: Record<string, string>;
  rate: number;
  /** Which request comes i-th. */
  next: (i: number) => MixEntry;
  /** Requests still unanswered beyond this are not sent (counted as errors "overload"), so memory stays bounded. */
  maxOutstanding: number;
  connections: number;
}

export class OpenLoop {
  private readonly pool: Pool;
  private window = emptyWindow();
  private outstanding = 0;
  private sent = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly perKind = new Map<string, number>();

  constructor(private readonly options: OpenLoopOptions) {
    this.pool = new Pool(options.origin, { connections: options.connections, pipelining: 1 });
  }

  start(): void {
    const started = performance.now();
    const interval = 1000 / this.options.rate;
    // A timer every 10 ms sends every request due by then, each stamped with the time it was due.
    this.timer = setInterval(() => {
      const now = performance.now();
      while (started + this.sent * interval <= now) {
        this.send(started + this.sent * interval);
        this.sent++;
      }
    }, 10);
  }

  /** The statistics since the last call, starting a new window. */
  takeWindow(): WindowStats {
    const window = this.window;
    this.window = emptyWindow();
    return window;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.outstanding > 0) await new Promise((r) => setTimeout(r, 50));
    await this.pool.close();
  }

  private send(due: number): void {
    const entry = this.options.next(this.sent);
    const n = this.perKind.get(entry.kind) ?? 0;
    this.perKind.set(entry.kind, n + 1);
    if (this.outstanding >= this.options.maxOutstanding) {
      this.record(entry.kind, due, "overload");
      return;
    }
    this.outstanding++;
    this.pool
      .request({ method: "GET", path: entry.path(n), headers: this.options.headers })
      .then(async (response) => {
        await response.body.text();
        this.record(
          entry.kind,
          due,
          response.statusCode >= 200 && response.statusCode < 300 ? undefined : String(response.statusCode),
        );
      })
      .catch((error: unknown) => this.record(entry.kind, due, error instanceof Error ? error.name : "error"))
      .finally(() => this.outstanding--);
  }

  private record(kind: string, due: number, error: string | undefined): void {
    const w = this.window;
    w.requests++;
    if (error !== undefined) {
      w.errors++;
      w.errorKinds[error] = (w.errorKinds[error] ?? 0) + 1;
      return;
    }
    const latency = performance.now() - due;
    w.latencies.push(latency);
    const list = w.byKind.get(kind) ?? [];
    list.push(latency);
    w.byKind.set(kind, list);
  }
}
