import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as USearch from "usearch";
import type { ArticlePartition } from "./article-partition.js";
import { lastEmbedded, toVector, VECTORS_SCHEMA } from "./partition-vectors.js";

// The approximate-nearest-neighbour index of one monthly index: an HNSW graph
// (usearch, float32, inner product: the vectors are unit length, so cosine) over the vectors of `article_vectors`, keyed by
// article rowid, in a file beside the monthly index (`articles-YYYYMM.ann`)
// with a small description (`articles-YYYYMM.ann.json`: model, the largest
// rowid it covers, the graph file's size). Chosen by measurement (see
// bench/RESULTS.md, "Semantic ranking: the vector engine").
//
// The embedding thread builds it and keeps it in step (AnnBuilder): a missing
// or stale file (another model, or vectors it lacks that are gone) is rebuilt
// from `article_vectors`; new vectors are added in memory and the file is
// rewritten (a new file renamed over the old) once enough have arrived or the
// index is caught up. Read threads map the file read-only (shared by every
// thread through the page cache) and answer the vectors stored after `upTo`
// (not in the file yet) by an exact scan: the file is never required for a
// correct answer, only for a fast one.

// The package's ES module finds its native build from the call stack, which never returns on a
// thread started from code (threads/worker-rpc.ts); its CommonJS build looks beside itself.
const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof USearch;
type Index = USearch.Index;

export const ANN_FORMAT = 1;
/** Graph parameters: neighbours per node, and the candidate lists of insertion and search (measured). */
const CONNECTIVITY = 16;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 64;

export interface AnnMeta {
  format: number;
  model: string;
  /** Every stored vector up to this rowid is in the file. */
  upTo: number;
  /** Vectors in the file. */
  vectors: number;
  /** Size of the graph file, to tell a file being replaced from the one described. */
  bytes: number;
}

export function annPaths(dbPath: string): { index: string; meta: string } {
  const base = dbPath.replace(/\.db$/, "");
  return { index: `${base}.ann`, meta: `${base}.ann.json` };
}

export function readAnnMeta(dbPath: string): AnnMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(annPaths(dbPath).meta, "utf8")) as AnnMeta;
    return meta.format === ANN_FORMAT ? meta : undefined;
  } catch {
    return undefined;
  }
}

function indexOf(dimensions: number): Index {
  return new Index({
    dimensions,
    metric: MetricKind.IP,
    quantization: ScalarKind.F32,
    connectivity: CONNECTIVITY,
    expansion_add: EXPANSION_ADD,
    expansion_search: EXPANSION_SEARCH,
    multi: false,
  });
}

/** A read thread's view of one monthly index's graph. */
export interface AnnView {
  meta: AnnMeta;
  /** The nearest `k` rowids in the file, best first, with their dot product (cosine similarity). */
  search(vector: Float32Array, k: number): Array<{ rowid: number; score: number }>;
}

const views = new Map<string, { view: AnnView; stamp: string }>();

/** The graph of the index at `dbPath` made with `model`, mapped read-only; undefined when there is none usable. */
export function annView(dbPath: string, model: string, dimensions: number): AnnView | undefined {
  const paths = annPaths(dbPath);
  let stamp: string;
  let indexSize: number;
  try {
    // Both files, so a graph replaced or damaged since it was mapped is never searched.
    const meta = statSync(paths.meta);
    const index = statSync(paths.index);
    indexSize = index.size;
    stamp = `${meta.mtimeMs}/${meta.size}/${index.mtimeMs}/${index.size}/${index.ino}`;
  } catch {
    views.delete(dbPath);
    return undefined;
  }
  const held = views.get(dbPath);
  if (held?.stamp === stamp) return held.view.meta.model === model ? held.view : undefined;
  views.delete(dbPath);
  const meta = readAnnMeta(dbPath);
  if (meta === undefined || meta.model !== model || indexSize !== meta.bytes) return undefined;
  try {
    const index = indexOf(dimensions);
    index.view(paths.index);
    const view: AnnView = {
      meta,
      search(vector, k) {
        const found = index.search(vector, Math.max(1, Math.min(k, meta.vectors)), 1);
        const out: Array<{ rowid: number; score: number }> = [];
        for (let i = 0; i < found.keys.length; i++) {
          out.push({ rowid: Number(found.keys[i]), score: 1 - (found.distances[i] as number) });
        }
        return out;
      },
    };
    views.set(dbPath, { view, stamp });
    return view;
  } catch {
    return undefined;
  }
}

/** Rows added per call to the graph (one native call each). */
const ADD_BATCH = 1000;

/**
 * The embedding thread's side: brings the graph file of one monthly index up
 * to date with its stored vectors. Holds the graph in memory while vectors
 * arrive; `release()` drops it once saved.
 */
export class AnnBuilder {
  private index: Index | undefined;
  private upTo = 0;
  private vectors = 0;
  private unsaved = 0;

  constructor(
    private readonly partition: ArticlePartition,
    private readonly dbPath: string,
    private readonly model: string,
    private readonly dimensions: number,
  ) {}

  /** True when the file describes every stored vector with this model. */
  upToDate(): boolean {
    const meta = readAnnMeta(this.dbPath);
    const index = annPaths(this.dbPath).index;
    return (
      meta !== undefined &&
      meta.model === this.model &&
      existsSync(index) &&
      statSync(index).size === meta.bytes &&
      meta.upTo === lastEmbedded(this.partition)
    );
  }

  /**
   * Adds the stored vectors after those the graph holds, and writes the file
   * when `save` says so or more than `saveEvery` (and a quarter of the graph)
   * have arrived since the last write.
   * Returns the vectors added.
   */
  catchUp(options: { save: boolean; saveEvery: number; threads?: number }): number {
    const last = lastEmbedded(this.partition);
    // Fewer vectors than the graph holds: they were replaced (another model); start over.
    if (this.index !== undefined && last < this.upTo) this.index = undefined;
    const index = this.open();
    let added = 0;
    const read = this.partition.statements.get(
      "SELECT rowid, embedding FROM article_vectors WHERE rowid > ? AND embedding IS NOT NULL ORDER BY rowid LIMIT ?",
    );
    for (;;) {
      const rows = read.all(this.upTo, ADD_BATCH) as Array<{ rowid: number; embedding: Buffer }>;
      if (rows.length === 0) break;
      const keys = BigUint64Array.from(rows, (r) => BigInt(r.rowid));
      index.add(
        keys,
        rows.map((r) => toVector(r.embedding)),
        options.threads ?? 1,
      );
      this.upTo = (rows[rows.length - 1] as { rowid: number }).rowid;
      added += rows.length;
    }
    // Articles with no text to embed (NULL) are covered too: nothing of theirs is missing from the graph.
    this.upTo = Math.max(this.upTo, last);
    this.vectors += added;
    this.unsaved += added;
    if (options.save || this.unsaved >= Math.max(options.saveEvery, this.vectors / 4)) this.save();
    return added;
  }

  /** Forgets the graph in memory (the file stays). */
  release(): void {
    this.index = undefined;
  }

  private open(): Index {
    if (this.index) return this.index;
    const meta = readAnnMeta(this.dbPath);
    const paths = annPaths(this.dbPath);
    const last = lastEmbedded(this.partition);
    const index = indexOf(this.dimensions);
    let reused = false;
    if (meta && meta.model === this.model && meta.upTo <= last && existsSync(paths.index)) {
      try {
        if (statSync(paths.index).size === meta.bytes) {
          index.load(paths.index);
          this.upTo = meta.upTo;
          this.vectors = meta.vectors;
          reused = true;
        }
      } catch {
        reused = false;
      }
    }
    if (!reused) {
      // Missing, of another model, or describing vectors that are gone: start over from the table.
      this.partition.db.exec(VECTORS_SCHEMA);
      this.upTo = 0;
      this.vectors = 0;
      this.unsaved = 1;
      this.index = indexOf(this.dimensions);
      return this.index;
    }
    this.index = index;
    return index;
  }

  private save(): void {
    const index = this.open();
    const paths = annPaths(this.dbPath);
    const tmp = `${paths.index}.tmp`;
    index.save(tmp);
    const bytes = statSync(tmp).size;
    renameSync(tmp, paths.index);
    const meta: AnnMeta = { format: ANN_FORMAT, model: this.model, upTo: this.upTo, vectors: this.vectors, bytes };
    writeFileSync(`${paths.meta}.tmp`, JSON.stringify(meta));
    renameSync(`${paths.meta}.tmp`, paths.meta);
    this.unsaved = 0;
  }
}

/** Removes a monthly index's graph files (its vectors are being replaced). */
export function removeAnn(dbPath: string): void {
  const paths = annPaths(dbPath);
  rmSync(paths.meta, { force: true });
  rmSync(paths.index, { force: true });
}
