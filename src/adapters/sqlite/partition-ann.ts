import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type * as USearch from "usearch";
import type { ArticlePartition } from "./article-partition.js";
import { lastEmbedded, toVector, VECTORS_SCHEMA } from "./partition-vectors.js";
import { hasCode, warnRecovered } from "../../shared/caught.js";

// The approximate-nearest-neighbour index of one monthly index: an HNSW graph
// (usearch, float32, inner product) over the vectors of
// `article_vectors`, keyed by article rowid, in files
// beside the monthly index:
//
//   articles-YYYYMM.ann       the graph
//   articles-YYYYMM.ann.dup   articles whose vector equals an earlier one's
//                             (syndicated copies: same headline, same names),
//                             as (article, the earlier one) uint32 pairs; only
//                             the first of equal vectors is a node, since many
//                             equal nodes cut an HNSW graph into islands
//   articles-YYYYMM.ann.json  model, the largest rowid covered, both files'
//                             sizes (a file being replaced is never read)
//
// Chosen by measurement (bench/RESULTS.md, "Semantic ranking: the vector
// engine" and "Vectors"). The embedding thread builds it and keeps it in step (AnnBuilder):
// a missing or stale graph (another model, damaged, or holding vectors that
// are gone) is rebuilt from `article_vectors`; new vectors are added in memory
// and the files rewritten (new files renamed over the old) once enough have
// arrived or the index is caught up. Read threads map the graph read-only
// (one copy in the page cache for every thread) and answer the vectors stored
// after `upTo` by an exact scan: the graph is never needed for a correct
// answer, only for a fast one.

// The package's ES module finds its native build from the call stack, which never returns on a
// thread started from code (threads/worker-rpc.ts); its CommonJS build looks beside itself.
const { Index, MetricKind, ScalarKind } = createRequire(import.meta.url)("usearch") as typeof USearch;
type Index = USearch.Index;

/**
 * 4: float32 inner product, the graph's scores exact. 3 held int8 components whose neighbours were re-scored from the
 * stored vectors, one SQLite read each: the 1,000 nearest of six months took 141 ms against 20 (bench/RESULTS.md,
 * "Semantic ranking"). Another format's graph is rebuilt, the exact scan answering meanwhile.
 */
export const ANN_FORMAT = 4;
/** Graph parameters: neighbours per node, and the candidate lists of insertion and search (measured). */
const CONNECTIVITY = 32;
const EXPANSION_ADD = 256;
const EXPANSION_SEARCH = 128;

export interface AnnMeta {
  format: number;
  model: string;
  /** Every stored vector up to this rowid is in the files. */
  upTo: number;
  /** Nodes of the graph (distinct vectors). */
  vectors: number;
  /** Articles the files cover: nodes and their copies. */
  articles: number;
  /** Sizes of the graph and copies files, to tell files being replaced from those described. */
  bytes: number;
  dupBytes: number;
}

export function annPaths(dbPath: string): { index: string; dup: string; meta: string } {
  const base = dbPath.replace(/\.db$/, "");
  return { index: `${base}.ann`, dup: `${base}.ann.dup`, meta: `${base}.ann.json` };
}

export function readAnnMeta(dbPath: string): AnnMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(annPaths(dbPath).meta, "utf8")) as AnnMeta;
    return meta.format === ANN_FORMAT ? meta : undefined;
  } catch (error) {
    // No graph yet (no file), or one being replaced or damaged (not JSON): none to use.
    if (hasCode(error, "ENOENT") || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** The files exist, are the sizes the description names, and were made with `model`. */
function filesMatch(paths: ReturnType<typeof annPaths>, meta: AnnMeta | undefined, model: string): meta is AnnMeta {
  try {
    return (
      meta !== undefined &&
      meta.model === model &&
      statSync(paths.index).size === meta.bytes &&
      statSync(paths.dup).size === meta.dupBytes
    );
  } catch (error) {
    // A graph file gone: not current.
    if (hasCode(error, "ENOENT")) return false;
    throw error;
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
  /**
   * At least the nearest `k` articles the files cover (the nodes nearest, each
   * followed by its copies), best first, with their dot product (cosine
   * similarity), as the exact scan scores them; ties newest (highest rowid) first. Articles in `skip` are left
   * out and not counted towards `k` (/similar's seed story: thousands of copies
   * of a few vectors, which would otherwise widen the search by as many).
   */
  search(vector: Float32Array, k: number, skip?: ReadonlySet<number>): Array<{ rowid: number; score: number }>;
}

const views = new Map<string, { view: AnnView; stamp: string }>();

/** The graph of the index at `dbPath` made with `model`, mapped read-only; undefined when there is none usable. */
export function annView(dbPath: string, model: string, dimensions: number): AnnView | undefined {
  const paths = annPaths(dbPath);
  let stamp: string;
  try {
    // Every file, so a graph replaced or damaged since it was mapped is never searched.
    stamp = [paths.meta, paths.index, paths.dup]
      .map((p) => {
        const s = statSync(p);
        return `${s.mtimeMs}/${s.size}/${s.ino}`;
      })
      .join("|");
  } catch (error) {
    // A graph file gone since its meta was read: none to search.
    if (!hasCode(error, "ENOENT")) throw error;
    views.delete(dbPath);
    return undefined;
  }
  const held = views.get(dbPath);
  if (held?.stamp === stamp) return held.view.meta.model === model ? held.view : undefined;
  views.delete(dbPath);
  const meta = readAnnMeta(dbPath);
  if (!filesMatch(paths, meta, model)) return undefined;
  try {
    const index = indexOf(dimensions);
    index.view(paths.index);
    const dup = readFileSync(paths.dup);
    const copies = copiesByNode(dup);
    const nodeOf = nodeOfCopy(dup, meta.upTo);
    // Nodes to ask for to reach k articles: in proportion to the share of articles that are nodes, with a margin,
    // plus the nodes whose articles are skipped (a story's copies share a few nodes, the nearest ones).
    const share = meta.vectors / Math.max(1, meta.articles);
    const skippedNodes = (skip: ReadonlySet<number>): number => {
      const nodes = new Set<number>();
      for (const rowid of skip) if (rowid <= meta.upTo) nodes.add(nodeOf[rowid] || rowid);
      return nodes.size;
    };
    const view: AnnView = {
      meta,
      search(vector, k, skip) {
        const skipped = skip === undefined || skip.size === 0 ? 0 : skippedNodes(skip);
        let nodes = Math.min(meta.vectors, Math.ceil(k * share * 1.5) + 16 + skipped);
        for (;;) {
          const found = index.search(vector, Math.max(1, nodes), 1);
          const out: Array<{ rowid: number; score: number }> = [];
          for (let i = 0; i < found.keys.length; i++) {
            const rowid = Number(found.keys[i]);
            const score = 1 - (found.distances[i] as number);
            if (!skip?.has(rowid)) out.push({ rowid, score });
            for (const copy of copies.get(rowid) ?? []) if (!skip?.has(copy)) out.push({ rowid: copy, score });
          }
          if (out.length >= k || nodes >= meta.vectors) {
            out.sort((a, b) => b.score - a.score || b.rowid - a.rowid);
            return out;
          }
          // Copies are uneven (a wire story's hundreds, most vectors' none): ask again in proportion to what was met.
          nodes = Math.min(meta.vectors, Math.max(nodes * 2, Math.ceil((nodes * k * 1.5) / Math.max(1, out.length))));
        }
      },
    };
    views.set(dbPath, { view, stamp });
    return view;
  } catch (error) {
    // A graph that does not map: the exact ranking answers instead.
    warnRecovered(`mapping the nearest-neighbour graph of ${dbPath}`, error);
    return undefined;
  }
}

/** Each copy's node, by rowid (0: not a copy): 4 bytes per article of the month. */
function nodeOfCopy(file: Buffer, upTo: number): Uint32Array {
  const pairs = new Uint32Array(new Uint8Array(file).buffer, 0, file.byteLength >>> 2);
  const out = new Uint32Array(upTo + 1);
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const copy = pairs[i] as number;
    if (copy <= upTo) out[copy] = pairs[i + 1] as number;
  }
  return out;
}

function copiesByNode(file: Buffer): Map<number, number[]> {
  const pairs = new Uint32Array(new Uint8Array(file).buffer, 0, file.byteLength >>> 2);
  const out = new Map<number, number[]>();
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const node = pairs[i + 1] as number;
    let list = out.get(node);
    if (!list) out.set(node, (list = []));
    list.push(pairs[i] as number);
  }
  return out;
}

/** Rows added per call to the graph (one native call each). */
const ADD_BATCH = 1000;

/** A 53-bit hash of a vector's bytes (two 32-bit FNV-1a variants); equal vectors are then compared in full. */
function vectorHash(blob: Buffer): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < blob.length; i++) {
    const byte = blob[i] as number;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/**
 * The embedding thread's side: brings the graph files of one monthly index up
 * to date with its stored vectors. Holds the graph in memory while vectors
 * arrive; `release()` drops it (the files stay).
 */
export class AnnBuilder {
  private index: Index | undefined;
  private upTo = 0;
  private vectors = 0;
  private articles = 0;
  private unsaved = 0;
  /** (article, node) pairs of the copies. */
  private copies: number[] = [];
  /** Nodes by the hash of their vector. */
  private nodes = new Map<number, number[]>();

  constructor(
    private readonly partition: ArticlePartition,
    private readonly dbPath: string,
    private readonly model: string,
    private readonly dimensions: number,
  ) {}

  /** True when the files describe every stored vector with this model. */
  upToDate(): boolean {
    const meta = readAnnMeta(this.dbPath);
    return filesMatch(annPaths(this.dbPath), meta, this.model) && meta.upTo === lastEmbedded(this.partition);
  }

  /**
   * Adds the stored vectors after those the graph holds, and writes the files
   * when `save` says so or more than `saveEvery` (and a quarter of the graph)
   * have arrived since the last write. Returns the vectors added.
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
      const fresh = rows.filter((row) => this.isNode(row.rowid, row.embedding));
      if (fresh.length > 0) {
        index.add(
          BigUint64Array.from(fresh, (r) => BigInt(r.rowid)),
          fresh.map((r) => toVector(r.embedding)),
          options.threads ?? 1,
        );
      }
      this.upTo = (rows[rows.length - 1] as { rowid: number }).rowid;
      this.vectors += fresh.length;
      this.articles += rows.length;
      added += rows.length;
    }
    // Articles with no text to embed (NULL) are covered too: nothing of theirs is missing.
    this.upTo = Math.max(this.upTo, last);
    this.unsaved += added;
    if (options.save || this.unsaved >= Math.max(options.saveEvery, this.articles / 4)) this.save();
    return added;
  }

  /** Forgets the graph in memory (the files stay). */
  release(): void {
    this.index = undefined;
    this.nodes = new Map();
    this.copies = [];
  }

  /** Whether the vector becomes a node; else it is recorded as a copy of the node holding the same vector. */
  private isNode(rowid: number, blob: Buffer): boolean {
    const hash = vectorHash(blob);
    const same = this.nodes.get(hash);
    if (same !== undefined) {
      const read = this.partition.statements.get("SELECT embedding FROM article_vectors WHERE rowid = ?").pluck();
      for (const node of same) {
        if ((read.get(node) as Buffer).equals(blob)) {
          this.copies.push(rowid, node);
          return false;
        }
      }
      same.push(rowid);
    } else {
      this.nodes.set(hash, [rowid]);
    }
    return true;
  }

  private open(): Index {
    if (this.index) return this.index;
    const meta = readAnnMeta(this.dbPath);
    const paths = annPaths(this.dbPath);
    const last = lastEmbedded(this.partition);
    this.release();
    if (filesMatch(paths, meta, this.model) && meta.upTo <= last) {
      try {
        const index = indexOf(this.dimensions);
        index.load(paths.index);
        this.index = index;
        this.upTo = meta.upTo;
        this.vectors = meta.vectors;
        this.articles = meta.articles;
        const pairs = readFileSync(paths.dup);
        this.copies = Array.from(new Uint32Array(new Uint8Array(pairs).buffer, 0, pairs.byteLength >>> 2));
        // The nodes' hashes, to recognise copies among the vectors still to come.
        const copyOf = new Set(this.copies.filter((_, i) => i % 2 === 0));
        const rows = this.partition.statements
          .get("SELECT rowid, embedding FROM article_vectors WHERE rowid <= ? AND embedding IS NOT NULL")
          .iterate(meta.upTo) as Iterable<{ rowid: number; embedding: Buffer }>;
        for (const row of rows) {
          if (copyOf.has(row.rowid)) continue;
          const hash = vectorHash(row.embedding);
          const same = this.nodes.get(hash);
          if (same) same.push(row.rowid);
          else this.nodes.set(hash, [row.rowid]);
        }
        return index;
      } catch (error) {
        // A graph that does not load is built again from the stored vectors.
        warnRecovered(`loading the nearest-neighbour graph of ${this.dbPath}`, error);
        this.release();
      }
    }
    // Missing, damaged, of another model, or describing vectors that are gone: start over from the table.
    this.partition.db.exec(VECTORS_SCHEMA);
    this.upTo = 0;
    this.vectors = 0;
    this.articles = 0;
    this.unsaved = 1;
    this.index = indexOf(this.dimensions);
    return this.index;
  }

  private save(): void {
    const index = this.open();
    const paths = annPaths(this.dbPath);
    index.save(`${paths.index}.tmp`);
    writeFileSync(`${paths.dup}.tmp`, new Uint8Array(Uint32Array.from(this.copies).buffer));
    const bytes = statSync(`${paths.index}.tmp`).size;
    const dupBytes = statSync(`${paths.dup}.tmp`).size;
    renameSync(`${paths.index}.tmp`, paths.index);
    renameSync(`${paths.dup}.tmp`, paths.dup);
    const meta: AnnMeta = {
      format: ANN_FORMAT,
      model: this.model,
      upTo: this.upTo,
      vectors: this.vectors,
      articles: this.articles,
      bytes,
      dupBytes,
    };
    writeFileSync(`${paths.meta}.tmp`, JSON.stringify(meta));
    renameSync(`${paths.meta}.tmp`, paths.meta);
    this.unsaved = 0;
  }
}

/** Removes a monthly index's graph files (its vectors are being replaced). */
export function removeAnn(dbPath: string): void {
  const paths = annPaths(dbPath);
  for (const path of [paths.meta, paths.index, paths.dup]) rmSync(path, { force: true });
}
