import { existsSync } from "node:fs";
import type { IndexMaintenance, RebuildProgress, RebuildSummary } from "../../../ports/index-maintenance.js";
import { ArticlePartition, closeQuietly } from "../article-partition.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { REBUILDABLE } from "../partition-schema.js";
import { PartitionWriter } from "../partition-writer.js";

// `newsindex reindex`: the derived fields of monthly indexes built before a
// derived vocabulary, rebuilt from the articles they store, oldest month first,
// in short transactions beside the server's connections (reads go on). Opening
// an index to write builds its time tallies when it has none (partition-writer.ts),
// in one transaction: such an index counts as rebuilt too.

export class DerivedRebuild implements IndexMaintenance {
  constructor(private readonly indexes: MonthlyIndexes) {}

  async rebuildDerived(
    options: { batch?: number; onProgress?: (progress: RebuildProgress) => void } = {},
  ): Promise<RebuildSummary> {
    const months: string[] = [];
    const skipped: Array<{ month: string; reason: string }> = [];
    let articles = 0;
    for (const month of [...this.indexes.months()].reverse()) {
      const path = this.indexes.pathOf(month);
      if (!existsSync(path)) continue;
      let writer: PartitionWriter;
      let tallied = false;
      let partition: ArticlePartition | undefined;
      try {
        // On this thread, beside the server's connections: each batch is a short transaction, so reads go on.
        partition = new ArticlePartition(month, path, { create: true });
        tallied = !partition.talliesBuilt();
        writer = new PartitionWriter(partition);
      } catch (error) {
        closeQuietly(partition);
        skipped.push({ month, reason: error instanceof Error ? error.message : String(error) });
        continue;
      }
      try {
        const built = writer.partition.derivedFields();
        if (REBUILDABLE.every((v) => built.has(v))) {
          if (tallied) {
            months.push(month);
            articles += writer.partition.count();
          }
          continue;
        }
        months.push(month);
        const total = writer.partition.count();
        let done = writer.resumedAt();
        options.onProgress?.({ month, done, total });
        for (let n = writer.rebuildDerived(options.batch ?? 1000); n > 0; n = writer.rebuildDerived(options.batch ?? 1000)) {
          done += n;
          articles += n;
          options.onProgress?.({ month, done, total });
        }
      } finally {
        writer.close();
      }
    }
    return { months, articles, skipped };
  }
}
