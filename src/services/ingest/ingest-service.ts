import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleSource } from "../../ports/article-source.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { Clock } from "../../shared/clock.js";

// Reads files through an ArticleSource and writes them to the index in
// batches. Bad lines are skipped and reported with their line numbers; ingest
// never aborts on bad data. Writing is idempotent by article id.

export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface IngestSummary {
  files: number;
  /** Records read (good and skipped). */
  records: number;
  inserted: number;
  unchanged: number;
  skipped: number;
  skippedLines: SkippedLine[];
  seconds: number;
  recordsPerSecond: number;
}

export interface IngestProgress {
  file: string;
  records: number;
}

/** At most this many skipped lines are kept for the report; the count stays exact. */
const SKIPPED_KEPT = 1000;

export class IngestService {
  constructor(
    private readonly source: ArticleSource,
    private readonly index: IndexBackend,
    private readonly batchSize: number,
    private readonly clock: Clock,
  ) {}

  async ingest(files: readonly string[], onProgress?: (progress: IngestProgress) => void): Promise<IngestSummary> {
    const started = this.clock.now();
    const summary: IngestSummary = {
      files: files.length,
      records: 0,
      inserted: 0,
      unchanged: 0,
      skipped: 0,
      skippedLines: [],
      seconds: 0,
      recordsPerSecond: 0,
    };
    for (const file of files) {
      let batch: ArticleDetail[] = [];
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        const written = await this.index.write(batch);
        summary.inserted += written.inserted;
        summary.unchanged += written.unchanged;
        batch = [];
        onProgress?.({ file, records: summary.records });
      };
      for await (const record of this.source.read(file)) {
        summary.records++;
        if (record.ok) {
          batch.push(record.article);
          if (batch.length >= this.batchSize) await flush();
        } else {
          summary.skipped++;
          if (summary.skippedLines.length < SKIPPED_KEPT)
            summary.skippedLines.push({ file, line: record.line, reason: record.reason });
        }
      }
      await flush();
    }
    summary.seconds = (this.clock.now() - started) / 1000;
    summary.recordsPerSecond = summary.seconds > 0 ? Math.round(summary.records / summary.seconds) : summary.records;
    return summary;
  }
}
