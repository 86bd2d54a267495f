import type { ArticleDetail } from "../domain/article.js";

// An ingestable file read as articles. The GKG adapter implements it; the ingest
// service consumes it without knowing the file format.

export type SourceRecord = { ok: true; line: number; article: ArticleDetail } | { ok: false; line: number; reason: string };

export interface ReadOptions {
  /** The file that will be read after this one, which a source may start reading ahead. */
  next?: string;
}

export interface ArticleSource {
  /** Streams the records of one file (`.csv`, `.csv.gz`, `.csv.zip`, BigQuery CSV export). Memory stays flat. */
  read(path: string, options?: ReadOptions): AsyncIterable<SourceRecord>;
  /** Ends what reading holds between files (a parse thread); the next read starts it again. */
  release?(): Promise<void>;
}
