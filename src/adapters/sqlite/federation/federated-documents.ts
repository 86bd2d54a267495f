import type { ArticleDetail } from "../../../domain/article.js";
import type { ArticleLookup } from "../../../ports/article-store.js";
import type { PartitionFailure } from "../../../ports/index-coverage.js";
import { monthOf } from "../../../shared/timestamps.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { unreadable, walkPartitions, type Walk } from "../partition-walker.js";
import { NOT_STARTED, type ReadPool } from "../read-pool.js";
import { absorb } from "./walk-merge.js";

// Documents across monthly indexes: an article by id (its id's 14-digit prefix
// names its month), documents of a page or of articles ranked elsewhere, and
// the count of what every readable index holds.

export class FederatedDocuments {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
  ) {}

  /** Loads the documents of the page from the partitions that ranked them. */
  async load(page: ReadonlyArray<{ id: string; month: string }>, walk: Walk): Promise<Map<string, string>> {
    const byMonth = new Map<string, string[]>();
    for (const hit of page) {
      let ids = byMonth.get(hit.month);
      if (!ids) byMonth.set(hit.month, (ids = []));
      ids.push(hit.id);
    }
    const docs = new Map<string, string>();
    const loaded = await walkPartitions(
      this.pool,
      [...byMonth.keys()],
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "docs", month, args: { ids: byMonth.get(month) ?? [] } }),
      (_month, found) => {
        for (const [id, doc] of found) docs.set(id, doc);
      },
    );
    absorb(walk, loaded);
    return docs;
  }

  async getArticle(id: string): Promise<ArticleLookup> {
    const month = this.indexes.indexOf(id);
    if (typeof month !== "string") return month;
    try {
      const doc = await this.pool.run("light", { job: "doc", month, args: { id } });
      if (doc === NOT_STARTED || doc === undefined) return { status: "absent" };
      return { status: "found", article: JSON.parse(doc) as ArticleDetail };
    } catch (error) {
      return { status: "unavailable", reason: unreadable(month, error).reason };
    }
  }

  async getArticles(
    ids: readonly string[],
  ): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }> {
    const walk: Walk = { read: [], failed: [] };
    const docs = await this.load(
      ids.filter((id) => /^\d{14}/.test(id)).map((id) => ({ id, month: monthOf(id) })),
      walk,
    );
    const articles = new Map<string, ArticleDetail>();
    for (const id of ids) {
      const doc = docs.get(id);
      if (doc !== undefined) articles.set(id, JSON.parse(doc) as ArticleDetail);
    }
    return { articles, partitionsFailed: walk.failed };
  }

  async count(): Promise<number> {
    let total = 0;
    await walkPartitions(
      this.pool,
      this.indexes.months(),
      { lane: "light", startedMs: Date.now() },
      (month) => ({ job: "count", month, args: {} }),
      (_month, count) => {
        total += count;
      },
    );
    return total;
  }
}
