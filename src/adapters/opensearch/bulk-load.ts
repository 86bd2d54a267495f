import type { Client } from "@opensearch-project/opensearch";
import type { Indices_PutSettings_Request } from "@opensearch-project/opensearch/api/indices/putSettings.js";
import type { ArticleDetail } from "../../domain/article.js";
import { monthsOf } from "./bulk-write.js";
import type { IndexNames } from "./index-names.js";

// One bulk load into the monthly indices (OpenSearchIndex.bulkLoad): each
// monthly index a write of the load reaches stops its periodic refresh
// (refresh_interval -1) so the node flushes large segments and merges less;
// at the end every monthly index gets the template's interval back (also one
// an interrupted earlier load left at -1) and is refreshed once, so every
// article written is searchable when the load returns.

export class BulkLoad {
  private readonly paused = new Set<string>();

  constructor(
    private readonly client: Client,
    private readonly names: IndexNames,
  ) {}

  /** After a write: pauses the refresh of the months it reached for the first time (the write created or found them). */
  async wrote(articles: readonly ArticleDetail[]): Promise<void> {
    const months = [...monthsOf(articles)].filter((m) => !this.paused.has(m));
    if (months.length === 0) return;
    await this.client.indices.putSettings({
      index: months.map((m) => this.names.articleIndex(m)).join(","),
      body: { index: { refresh_interval: "-1" } },
    });
    for (const m of months) this.paused.add(m);
  }

  /**
   * Makes what was written searchable (one refresh); with `restore` (the last load sharing the pause to end), gives
   * every monthly index its refresh interval back first.
   */
  async end(restore: boolean): Promise<void> {
    const index = this.names.articlePattern;
    if (restore) {
      // null: back to the node's default (the template sets none), search-idle shards included.
      const interval = { index: { refresh_interval: null } } as unknown as Indices_PutSettings_Request["body"];
      await this.client.indices.putSettings({ index, body: interval, allow_no_indices: true });
    }
    await this.client.indices.refresh({ index, allow_no_indices: true });
  }
}
