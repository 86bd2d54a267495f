import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import { decodeTerms } from "./term-blob.js";

// Facet doc values held in memory, per monthly index and field: each article's
// values of the field (term seqs) by rowid, in one array with an offset per
// rowid (CSR), read once from the `terms` blobs. Counting a match set then
// reads the matches' rowids from SQLite and nothing else: a rowid costs an
// array read here against a row seek and a blob copy (about 1.2 us a match).
//
// The index only grows by appending rows with higher rowids, and an article
// keeps its values of every field but two once written, so a field is brought
// up to date by reading the rows after the last it holds. `story_id` (moved
// by relabels) and `event_type` (added by `newsindex reindex`) are read again
// whole when the index has changed since they were read. Reading them takes
// about as long as counting a facet over every article of the index once, so
// a query reads them only until half its time is left, and the next query
// goes on from there.

/** Fields whose values an article written earlier can change. */
const REWRITTEN: ReadonlySet<number> = new Set([FILTER_FIELDS.story_id.code, FILTER_FIELDS.event_type.code]);

/** One field's values of every article up to `through`, by rowid. */
export class FieldDocValues {
  /** Values of rowid r: values[starts[r]] .. values[starts[r + 1]] (exclusive); term seqs. */
  starts: Uint32Array = new Uint32Array(1024);
  values: Uint32Array = new Uint32Array(4096);
  /** Values held. */
  size = 0;
  /** One more than the largest seq held. */
  seqs = 0;
  /** The last rowid held: every article up to it (rowids start at 1). */
  through = 0;
  /** The index's `data_version` when read (a rewritten field is read again when it moves). */
  version = -1;
  /** Every row of the index at `version` is held (reading stopped at no deadline). */
  complete = false;

  /** Appends the values of `rowid` (above `through`) among the term ids `ids`. */
  append(rowid: number, ids: Uint32Array, code: number): void {
    if (rowid + 2 > this.starts.length) this.starts = grown(this.starts, rowid + 2);
    // Rowids with no row (none in practice: nothing is deleted) hold no values.
    for (let r = this.through + 1; r <= rowid; r++) this.starts[r] = this.size;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if ((id & 31) !== code) continue;
      if (this.size === this.values.length) this.values = grown(this.values, this.size + 1);
      const seq = id >>> 5;
      this.values[this.size++] = seq;
      if (seq >= this.seqs) this.seqs = seq + 1;
    }
    this.starts[rowid + 1] = this.size;
    this.through = rowid;
  }

  /** Gives back what growing left unused beyond an eighth more than held (the rows to come will use it). */
  trim(): void {
    const slack = (used: number): number => used + (used >>> 3) + 16;
    if (this.starts.length > slack(this.through + 2)) this.starts = this.starts.slice(0, slack(this.through + 2));
    if (this.values.length > slack(this.size)) this.values = this.values.slice(0, slack(this.size));
  }

  /** Bytes held (arrays as allocated). */
  get bytes(): number {
    return this.starts.byteLength + this.values.byteLength;
  }
}

const held = new WeakMap<ArticlePartition, Map<number, FieldDocValues>>();

/** Rows read at a time while catching up; the clock is looked at between reads. */
const CHUNK_ROWS = 8192;

/**
 * The doc values of fields `codes` in this index: read on first use, then the
 * rows written since. Reading stops at `stopAt` (ms since the epoch): the
 * values then hold only the articles up to their `through`, the rest of the
 * rows are read by a later call, and the caller counts the articles after
 * `through` from their rows.
 */
export function facetDocValues(
  partition: ArticlePartition,
  codes: readonly number[],
  stopAt = Number.POSITIVE_INFINITY,
): Map<number, FieldDocValues> {
  let fields = held.get(partition);
  if (fields === undefined) {
    fields = new Map();
    held.set(partition, fields);
  }
  const version = partition.statements.get("PRAGMA data_version").pluck().get() as number;
  const behind: Array<[number, FieldDocValues]> = [];
  const out = new Map<number, FieldDocValues>();
  for (const code of codes) {
    let field = fields.get(code);
    if (field === undefined || (REWRITTEN.has(code) && field.version !== version)) {
      field = new FieldDocValues();
      field.version = version;
      fields.set(code, field);
    }
    out.set(code, field);
    if (field.version !== version || !field.complete) behind.push([code, field]);
  }
  if (behind.length > 0) catchUp(partition, behind, version, stopAt);
  return out;
}

/** Reads the rows after the oldest `through` of `behind` into each field that lacks them, in chunks, until `stopAt`. */
function catchUp(
  partition: ArticlePartition,
  behind: ReadonlyArray<[number, FieldDocValues]>,
  version: number,
  stopAt: number,
): void {
  const last = (partition.statements.get("SELECT max(rowid) FROM articles").pluck().get() as number | null) ?? 0;
  const read = partition.statements.get("SELECT rowid, terms FROM articles WHERE rowid > ? AND rowid <= ?").raw();
  let from = Math.min(...behind.map(([, field]) => field.through));
  while (from < last && Date.now() < stopAt) {
    const to = Math.min(last, from + CHUNK_ROWS);
    for (const [rowid, blob] of read.all(from, to) as Array<[number, Buffer]>) {
      const ids = decodeTerms(blob);
      for (const [code, field] of behind) if (rowid > field.through) field.append(rowid, ids, code);
    }
    from = to;
  }
  for (const [, field] of behind) {
    field.version = version;
    field.complete = from >= last;
    field.trim();
  }
}

/** Bytes held in doc values by this index's connection (for measuring). */
export function docValuesBytes(partition: ArticlePartition): number {
  let bytes = 0;
  for (const field of held.get(partition)?.values() ?? []) bytes += field.bytes;
  return bytes;
}

function grown(array: Uint32Array, least: number): Uint32Array {
  const next = new Uint32Array(Math.max(least, Math.ceil(array.length * 1.5)));
  next.set(array);
  return next;
}
