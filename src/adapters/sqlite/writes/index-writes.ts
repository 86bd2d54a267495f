import { existsSync } from "node:fs";
import type { ArticleDetail } from "../../../domain/article.js";
import type { WriteResult } from "../../../ports/article-store.js";
import type { StoryRelabel } from "../../../ports/story-index.js";
import { monthOf } from "../../../shared/timestamps.js";
import { closeQuietly } from "../article-partition.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { openForWrite } from "../open-for-write.js";
import type { PartitionWriter } from "../partition-writer.js";
import { prepareArticle } from "../prepared-article.js";
import { WriterThread } from "../writer-thread.js";

// Writes to the monthly indexes: articles by the month of their id, and the
// relabelling story clustering causes. On a worker thread (default), so an
// ingest parses the next batch while the last one is written, or on the
// calling thread with one write connection per month kept open.

export class IndexWrites {
  /** Open write connections, when writes run on this thread. */
  private readonly writers = new Map<string, PartitionWriter>();
  private readonly writer: WriterThread | undefined;

  constructor(
    private readonly indexes: MonthlyIndexes,
    onThread: boolean,
  ) {
    if (onThread) this.writer = new WriterThread();
  }

  async write(articles: readonly ArticleDetail[]): Promise<WriteResult> {
    const byMonth = new Map<string, ArticleDetail[]>();
    for (const article of articles) {
      const month = monthOf(article.id);
      let batch = byMonth.get(month);
      if (!batch) byMonth.set(month, (batch = []));
      batch.push(article);
    }
    let inserted = 0;
    for (const [month, batch] of byMonth) {
      if (this.writer) {
        const path = this.indexes.pathOf(month);
        const isNew = !existsSync(path);
        inserted += await this.writer.write(month, path, batch.map(prepareArticle));
        if (isNew) this.indexes.add(month);
      } else {
        inserted += this.writerOf(month).write(batch.map(prepareArticle));
      }
    }
    return { inserted, unchanged: articles.length - inserted };
  }

  /** Moves articles to the story clustering put them in; each month's changes in one transaction. */
  async relabel(changes: readonly StoryRelabel[]): Promise<void> {
    for (const change of changes) {
      const byMonth = new Map<string, string[]>();
      for (const id of change.article_ids) {
        const month = monthOf(id);
        byMonth.set(month, [...(byMonth.get(month) ?? []), id]);
      }
      for (const [month, ids] of byMonth) {
        if (!existsSync(this.indexes.pathOf(month))) continue;
        if (this.writer) await this.writer.relabel(month, this.indexes.pathOf(month), change.story_id, ids);
        else this.writerOf(month).relabel(change.story_id, ids);
      }
    }
  }

  async close(): Promise<void> {
    await this.writer?.close();
    for (const month of [...this.writers.keys()]) this.forget(month);
  }

  /** Writes on this thread: one write connection per month, kept open. */
  private writerOf(month: string): PartitionWriter {
    let writer = this.writers.get(month);
    if (!writer) {
      const path = this.indexes.pathOf(month);
      const isNew = !existsSync(path);
      writer = openForWrite(month, path);
      this.writers.set(month, writer);
      if (isNew) this.indexes.add(month);
    }
    return writer;
  }

  private forget(month: string): void {
    closeQuietly(this.writers.get(month));
    this.writers.delete(month);
  }
}
