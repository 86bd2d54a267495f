import type { NearestArticle, NearestQuery, NearestResult, VectorLookup } from "../../../ports/vector-search.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { unreadable, walkPartitions } from "../partition-walker.js";
import { NOT_STARTED, type ReadPool } from "../read-pool.js";
import { readOf } from "./walk-merge.js";

// Vector search across monthly indexes: each ranks its filter matches
// (partition-nearest.ts: its HNSW graph or an exact scan), and the lists are
// merged by score.

export class FederatedVectors {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
    private readonly annMinMatches: number,
  ) {}

  /** Each monthly index ranks its filter matches (partition-nearest.ts: graph or exact scan); the lists are merged by score. */
  async nearest(query: NearestQuery): Promise<NearestResult> {
    const lists: NearestArticle[] = [];
    const unembedded: string[] = [];
    let scored = 0;
    const { vector, model, k, filters } = query;
    const exclude = query.excludeStory === undefined ? {} : { excludeStory: query.excludeStory };
    const walk = await walkPartitions(
      this.pool,
      this.indexes.monthsFor(query),
      { lane: "heavy", budgetMs: query.budgetMs, startedMs: Date.now() },
      (month) => ({ job: "nearest", month, args: { filters, vector, model, k, annMinMatches: this.annMinMatches, ...exclude } }),
      (month, part) => {
        scored += part.scored;
        if (part.unembedded > 0) unembedded.push(month);
        for (const hit of part.hits) {
          lists.push({ id: hit.id, story_id: hit.story_id, published_at: hit.published_at, score: hit.score });
        }
      },
    );
    // Ties: the newer article first, as keyword ranking breaks them.
    lists.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return {
      hits: lists.slice(0, k),
      scored,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      partitionsUnembedded: unembedded.filter((m) => !walk.failed.some((f) => f.partition === m)),
    };
  }

  async vectorOf(id: string, model: string): Promise<VectorLookup> {
    const month = this.indexes.indexOf(id);
    if (typeof month !== "string") return month;
    try {
      const found = await this.pool.run("light", { job: "vectorOf", month, args: { id, model } });
      if (found === NOT_STARTED) return { status: "unavailable", reason: `the monthly index ${month} was not read in time` };
      return found;
    } catch (error) {
      return { status: "unavailable", reason: unreadable(month, error).reason };
    }
  }
}
