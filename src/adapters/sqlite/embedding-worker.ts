import type { ArticleDetail } from "../../domain/article.js";
import { embeddingText } from "../../domain/embedding-text.js";
import { OnnxEmbedder } from "../onnx/onnx-embedder.js";
import { serveRequests, threadData } from "../threads/worker-rpc.js";
import { ArticlePartition, closeQuietly } from "./article-partition.js";
import { lastEmbedded, MODEL_KEY, toBlob, vectorStatus, VECTORS_SCHEMA, type VectorStatus } from "./partition-vectors.js";

// The embedding stage's thread (embedding-stage.ts): its own model session and
// its own write connections, so embedding never holds up parsing, keyword
// writes or queries. Each step embeds the next articles of one monthly index
// in rowid order and stores their vectors in one transaction: a step killed
// part way leaves nothing, and the next run resumes after the last stored.

export interface EmbeddingThreadData {
  modelDir: string;
}

export type EmbeddingRequest =
  | { kind: "status"; month: string; path: string }
  | { kind: "step"; month: string; path: string; max: number }
  | { kind: "close" };

export interface StepResult {
  embedded: number;
  status: VectorStatus;
}

let embedder: Promise<OnnxEmbedder> | undefined;
const partitions = new Map<string, ArticlePartition>();

function partitionOf(month: string, path: string): ArticlePartition {
  let partition = partitions.get(month);
  if (!partition) {
    partition = new ArticlePartition(month, path, { create: false });
    partitions.set(month, partition);
  }
  return partition;
}

async function step(partition: ArticlePartition, max: number): Promise<number> {
  const model = await (embedder ??= OnnxEmbedder.load(threadData<EmbeddingThreadData>().modelDir));
  partition.writing(() => {
    partition.db.exec(VECTORS_SCHEMA);
    const held = vectorStatus(partition).model;
    // Vectors of another model are not comparable with this one's queries: start the index over.
    if (held !== model.model) {
      partition.db.exec("DELETE FROM article_vectors");
      partition.statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MODEL_KEY, model.model);
    }
  });
  const rows = partition.statements
    .get("SELECT a.rowid, d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.rowid > ? ORDER BY a.rowid LIMIT ?")
    .all(lastEmbedded(partition), max) as Array<{ rowid: number; doc: string }>;
  if (rows.length === 0) return 0;
  const texts = rows.map((r) => embeddingText(JSON.parse(r.doc) as ArticleDetail));
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
  return rows.length;
}

async function handle(request: EmbeddingRequest): Promise<StepResult | VectorStatus | null> {
  if (request.kind === "close") {
    for (const partition of partitions.values()) closeQuietly(partition);
    partitions.clear();
    await (await embedder)?.close();
    embedder = undefined;
    return null;
  }
  const partition = partitionOf(request.month, request.path);
  try {
    if (request.kind === "status") return vectorStatus(partition);
    const embedded = await step(partition, request.max);
    return { embedded, status: vectorStatus(partition) };
  } catch (error) {
    partitions.delete(request.month);
    closeQuietly(partition);
    throw error;
  }
}

/** Runs on the embedding thread. */
export function serveEmbedding(): void {
  serveRequests(handle);
}
