import type { ArticleDetail } from "../../domain/article.js";
import { embeddingText } from "../../domain/embedding-text.js";
import type { Embedder } from "../../ports/embedder.js";
import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { ArticlePartition, closeQuietly } from "./article-partition.js";
import { decodeDoc } from "./doc-codec.js";
import { AnnBuilder, removeAnn } from "./partition-ann.js";
import {
  hasVectorTable,
  lastEmbedded,
  MODEL_KEY,
  toBlob,
  vectorModel,
  vectorStatus,
  VECTORS_SCHEMA,
  type VectorStatus,
} from "./partition-vectors.js";

// The embedding stage's thread (embedding-stage.ts): its own model session and
// its own write connections, so embedding never holds up parsing, keyword
// writes or queries. Each step embeds the next articles of one monthly index
// in rowid order and stores their vectors in one transaction: a step killed
// part way leaves nothing, and the next run resumes after the last stored.
// The same thread keeps each index's HNSW graph (partition-ann.ts) in step:
// the vectors of a step are added to it, and its file rewritten once the
// index is caught up or enough have arrived; `index` rebuilds a missing or
// stale graph from the stored vectors. At most one graph is held in memory.

/** An embedder this thread can hold: the model names its vectors, the dimensions size their graph. */
export type ThreadEmbedder = Embedder & { readonly dimensions: number };

/**
 * The module and export of the function that loads the embedder from a model directory with a number of sessions,
 * in this thread. The
 * composition root names it (an object cannot cross to a thread), so this store depends on no model runtime.
 */
export interface EmbedderLoader {
  module: string;
  exportName: string;
}

export interface EmbeddingThreadData {
  modelDir: string;
  loader: EmbedderLoader;
  /** Model sessions the loader starts (one thread each). */
  sessions: number;
}

export type EmbeddingRequest =
  | { kind: "status"; month: string; path: string }
  | { kind: "step"; month: string; path: string; max: number }
  | { kind: "index"; month: string; path: string; threads: number }
  | { kind: "close" };

export interface StepResult {
  embedded: number;
  status: VectorStatus;
}

let embedder: Promise<ThreadEmbedder> | undefined;

async function loadEmbedder(): Promise<ThreadEmbedder> {
  const { modelDir, loader, sessions } = threadData<EmbeddingThreadData>();
  const load = ((await import(loader.module)) as Record<string, unknown>)[loader.exportName];
  if (typeof load !== "function") throw new Error(`${loader.module} exports no embedder loader ${loader.exportName}`);
  return (load as (dir: string, sessions: number) => Promise<ThreadEmbedder>)(modelDir, sessions);
}
const partitions = new Map<string, ArticlePartition>();
let builder: { month: string; builder: AnnBuilder } | undefined;

/** Vectors added to a graph between two writes of its file, at least (else a quarter of the graph). */
const SAVE_EVERY = 10_000;

function builderOf(month: string, path: string, partition: ArticlePartition, model: ThreadEmbedder): AnnBuilder {
  if (builder?.month !== month) {
    builder?.builder.release();
    builder = { month, builder: new AnnBuilder(partition, path, model.model, model.dimensions) };
  }
  return builder.builder;
}

async function index(month: string, path: string, partition: ArticlePartition, threads: number): Promise<number> {
  const model = await (embedder ??= loadEmbedder());
  if (!hasVectorTable(partition) || vectorModel(partition) !== model.model) return 0;
  const graph = builderOf(month, path, partition, model);
  if (graph.upToDate()) return 0;
  const added = graph.catchUp({ save: true, saveEvery: SAVE_EVERY, threads });
  return added;
}

function partitionOf(month: string, path: string): ArticlePartition {
  let partition = partitions.get(month);
  if (!partition) {
    partition = new ArticlePartition(month, path, { create: false });
    partitions.set(month, partition);
  }
  return partition;
}

async function step(month: string, path: string, partition: ArticlePartition, max: number): Promise<number> {
  const model = await (embedder ??= loadEmbedder());
  partition.writing(() => {
    partition.db.exec(VECTORS_SCHEMA);
    const held = vectorStatus(partition).model;
    // Vectors of another model are not comparable with this one's queries: start the index over.
    if (held !== model.model) {
      if (builder?.month === month) builder = undefined;
      removeAnn(path);
      partition.db.exec("DELETE FROM article_vectors");
      partition.statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MODEL_KEY, model.model);
    }
  });
  const rows = partition.statements
    .get("SELECT a.rowid, d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.rowid > ? ORDER BY a.rowid LIMIT ?")
    .all(lastEmbedded(partition), max) as Array<{ rowid: number; doc: Buffer }>;
  if (rows.length === 0) return 0;
  const texts = rows.map((r) => embeddingText(JSON.parse(decodeDoc(r.doc)) as ArticleDetail));
  const nonEmpty = texts.flatMap((t, i) => (t === "" ? [] : [i]));
  const vectors = await model.embed(
    nonEmpty.map((i) => texts[i] as string),
    "passage",
  );
  const byRow = new Map(nonEmpty.map((i, k) => [i, vectors[k] as Float32Array]));
  const insert = partition.statements.get("INSERT OR REPLACE INTO article_vectors (rowid, embedding) VALUES (?, ?)");
  partition.writing(() =>
    partition.db.transaction(() => {
      rows.forEach((row, i) => {
        const vector = byRow.get(i);
        insert.run(row.rowid, vector === undefined ? null : toBlob(vector));
      });
    })(),
  );
  builderOf(month, path, partition, model).catchUp({ save: rows.length < max, saveEvery: SAVE_EVERY });
  return rows.length;
}

/** `index` answers the vectors the graph took in. */
async function handle(request: EmbeddingRequest): Promise<StepResult | VectorStatus | number | null> {
  if (request.kind === "close") {
    for (const partition of partitions.values()) closeQuietly(partition);
    partitions.clear();
    await (await embedder)?.close();
    embedder = undefined;
    builder = undefined;
    return null;
  }
  const partition = partitionOf(request.month, request.path);
  try {
    if (request.kind === "status") return vectorStatus(partition);
    if (request.kind === "index") {
      return await index(request.month, request.path, partition, request.threads);
    }
    const embedded = await step(request.month, request.path, partition, request.max);
    return { embedded, status: vectorStatus(partition) };
  } catch (error) {
    if (builder?.month === request.month) builder = undefined;
    partitions.delete(request.month);
    closeQuietly(partition);
    throw error;
  }
}

/** Runs on the embedding thread. */
export function serveEmbedding(): void {
  serveRequests(handle);
}
