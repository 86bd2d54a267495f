import type { Embedder } from "../../ports/embedder.js";
import { besideModule, WorkerRpc } from "../threads/worker-rpc.js";
import { byLength, OnnxEmbedder } from "./onnx-embedder.js";
import type { SessionRequest, SessionThreadData } from "./session-thread.js";

// Embeds on several cores: one model session on the calling thread and one on
// each extra thread (session-thread.ts), each on one intra-op thread. A batch's
// texts are grouped by token length as one session groups them, and each group
// goes whole to one session, so every text gets the vector one session would
// give it in the same batch. Measured on 2 cores, sessions on threads of their
// own embed more per second than one session with two intra-op threads (see
// bench/embedding-bench.ts).

export class ParallelEmbedder implements Embedder {
  readonly model: string;
  readonly dimensions: number;
  /** The other sessions' threads, started by the first embed (a run with nothing to embed never loads them). */
  private others: Promise<Array<WorkerRpc<SessionRequest, Float32Array[]>>> | undefined;

  private constructor(
    private readonly local: OnnxEmbedder,
    private readonly dir: string,
    readonly sessions: number,
  ) {
    this.model = local.model;
    this.dimensions = local.dimensions;
  }

  /** `sessions` model sessions (at least 1): the calling thread's is loaded before this resolves, the others on first use. */
  static async load(dir: string, sessions: number): Promise<ParallelEmbedder> {
    return new ParallelEmbedder(await OnnxEmbedder.load(dir), dir, Math.max(1, sessions));
  }

  async embed(texts: readonly string[], role: "query" | "passage"): Promise<Float32Array[]> {
    const prefix = this.local.prefixOf(role);
    const encoded = texts.map((t) => this.local.tokenIds(prefix + t));
    const shares = shareOut(encoded, this.sessions);
    // A call with one token length (a query) stays on this thread and starts no other.
    const others = shares.slice(1).some((share) => share.length > 0) ? await this.startOthers() : [];
    // The other threads' shares are sent first: the local share then runs beside them.
    const sent = shares.slice(1).map((share, k) =>
      share.length === 0
        ? Promise.resolve([])
        : (others[k] as WorkerRpc<SessionRequest, Float32Array[]>).call({
            kind: "embed",
            encoded: share.map((i) => encoded[i] as number[]),
          }),
    );
    sent.forEach((s) => s.catch(() => undefined));
    const mine = shares[0] ?? [];
    const results = [await this.local.embedTokens(mine.map((i) => encoded[i] as number[])), ...(await Promise.all(sent))];
    const out = new Array<Float32Array>(texts.length);
    shares.forEach((share, s) => share.forEach((i, k) => (out[i] = results[s]?.[k] as Float32Array)));
    return out;
  }

  /** The other sessions, each loaded (a first embed) before it is given a share; a failed start is tried again next time. */
  private startOthers(): Promise<Array<WorkerRpc<SessionRequest, Float32Array[]>>> {
    this.others ??= (async () => {
      const others = Array.from(
        { length: this.sessions - 1 },
        (_, k) =>
          new WorkerRpc<SessionRequest, Float32Array[]>(
            { module: besideModule(import.meta.url, "session-thread"), exportName: "serveSession" },
            `embedding session thread ${k + 1}`,
            { modelDir: this.dir } satisfies SessionThreadData,
          ),
      );
      try {
        await Promise.all(others.map((o) => o.call({ kind: "embed", encoded: [[101, 102]] })));
        return others;
      } catch (error) {
        this.others = undefined;
        await Promise.all(others.map((o) => o.close()));
        throw error;
      }
    })();
    return this.others;
  }

  async close(): Promise<void> {
    const others = (await this.others?.catch(() => undefined)) ?? [];
    this.others = undefined;
    await Promise.all(others.map((o) => o.close({ kind: "close" }).catch(() => undefined)));
    await this.local.close();
  }
}

/**
 * The texts (positions) each session embeds: whole groups of one token length, longest first, each to the session
 * with the fewest tokens so far, so the sessions finish about together.
 */
export function shareOut(encoded: readonly number[][], sessions: number): number[][] {
  const shares = Array.from({ length: Math.max(1, sessions) }, () => ({ tokens: 0, members: [] as number[] }));
  const groups = [...byLength(encoded)].sort((a, b) => b[0] * b[1].length - a[0] * a[1].length);
  for (const [width, members] of groups) {
    const least = shares.reduce((a, b) => (b.tokens < a.tokens ? b : a));
    least.tokens += width * members.length;
    least.members.push(...members);
  }
  return shares.map((s) => s.members);
}

/** Loads the model in the thread that asks (the embedding stage's own thread): the loader the composition root names. */
export function loadParallelEmbedder(dir: string, sessions: number): Promise<ParallelEmbedder> {
  return ParallelEmbedder.load(dir, sessions);
}

/** Where an embedding thread finds loadParallelEmbedder: this module. */
export const ONNX_EMBEDDER_LOADER = { module: import.meta.url, exportName: "loadParallelEmbedder" } as const;
