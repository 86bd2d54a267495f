import type { EncodedLines, ExportView } from "../domain/export-lines.js";
import type { KeywordQuery } from "../domain/keyword-query.js";
import type { ArticleFilters } from "../domain/search-query.js";
import type { PartitionFailure } from "./index-coverage.js";

// An export (GET /export, `newsindex export`): every article a query matches,
// newest first then by id, read in batches from a walk the engine keeps open.
// A batch comes as its lines, encoded where the documents are read
// (domain/export-lines.ts), so the stream only hashes and writes bytes; the
// stream releases it once they are written, so an engine may reuse the memory.
// The embedded index answers with a keyset walk over its monthly indexes; a
// scaled engine answers with a point-in-time view paged by `search_after` on
// (published_at, id): `count` runs against that view, `next` pages it, and
// `close` releases it, so every batch reads the index as it was when counted.

/** A place in export order (published_at desc, then id desc). */
export interface ExportPosition {
  published_at: string;
  id: string;
}

/** Where a batch starts: strictly after a position, or with the articles older than a timestamp. */
export type ExportStart = ExportPosition | { before: string };

export interface ExportQuery {
  /** Matching only: an export is never ranked. */
  keywords?: KeywordQuery;
  /** With the window, already within the plan's reach. */
  filters: ArticleFilters;
  /** Resume strictly after this position; null from the newest match. */
  after: ExportPosition | null;
  /** How each article is written on its line. */
  view: ExportView;
}

/** A timestamp holding more matches than a tie group may serve (domain/browse-cursor.ts TIE_GROUP_LIMIT). */
export interface LargeTieGroup {
  published_at: string;
  /** Matches at this timestamp. */
  matches: number;
  /** Of them, those at or before `after` in export order (already sent by earlier pieces). */
  sent: number;
}

export interface ExportCount {
  /** Every match of the query, whatever `after` (the /search total). */
  total: number;
  /** Matches strictly after `after`. */
  remaining: number;
  /** Timestamps with more than `tieLimit` matches, at or after `after` in export order. */
  largeTieGroups: LargeTieGroup[];
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

export interface ExportBatch {
  /** In export order; empty only when the walk is over (or a partition failed). */
  rows: ExportPosition[];
  /** The rows' lines in the query's view, row i's ending at `lines.ends[i]`. */
  lines: EncodedLines;
  /** Partitions that could not be read for this batch: the rows after the last one given are not reliable. */
  partitionsFailed: PartitionFailure[];
  /**
   * Tells the engine the batch's lines have been written out (to the socket, a file), so the memory they are in can
   * be filled again. Optional both ways: a batch without it holds nothing, and one never released is left to the
   * garbage collector.
   */
  release?(): void;
}

export interface ExportWalk {
  /** Counted once, when the walk opened. */
  readonly count: ExportCount;
  /** Up to `n` matches from `start` (null: the newest), in export order, with their lines; none when the walk is over. */
  next(start: ExportStart | null, n: number): Promise<ExportBatch>;
  /** Releases what the walk holds; idempotent. */
  close(): Promise<void>;
}

export interface ArticleExporter {
  /** Counts the query's matches and opens a walk over them; `tieLimit` sizes what `largeTieGroups` reports. */
  openExport(query: ExportQuery, tieLimit: number): Promise<ExportWalk>;
}
