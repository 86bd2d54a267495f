import type { EntitySpelling, EntitySpellings, EntitySpellingsQuery } from "../../../ports/entity-lexicon.js";
import type { MonthlyIndexes } from "../catalog/monthly-indexes.js";
import { walkPartitions } from "../partition-walker.js";
import type { ReadPool } from "../read-pool.js";
import { readOf } from "./walk-merge.js";

// Entity spellings across monthly indexes (entity-keys.ts in each), merged by
// folded value.

export class FederatedLexicon {
  constructor(
    private readonly pool: ReadPool,
    private readonly indexes: MonthlyIndexes,
  ) {}

  /** Spellings by er-v1 key (ports/entity-lexicon.ts): each monthly index the window reaches, merged by folded value. */
  async entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings> {
    const merged = new Map<string, EntitySpelling>();
    let truncated = false;
    // One query per index, and a second where the window cut into it and each spelling was checked against it.
    let queries = 0;
    const { budgetMs, ...args } = query;
    const window = { ...(args.from === undefined ? {} : { from: args.from }), ...(args.to === undefined ? {} : { to: args.to }) };
    const walk = await walkPartitions(
      this.pool,
      this.indexes.monthsFor({ filters: window }),
      { lane: "light", budgetMs, startedMs: Date.now() },
      (month) => ({ job: "entitySpellings", month, args: { ...args, ...window } }),
      (_month, part) => {
        truncated ||= part.truncated;
        queries = Math.max(queries, part.windowChecked ? 2 : 1);
        for (const spelling of part.spellings) {
          const seen = merged.get(spelling.key);
          if (seen === undefined) merged.set(spelling.key, { ...spelling });
          else seen.articles = query.counts ? seen.articles + spelling.articles : 1;
        }
      },
    );
    const spellings = [...merged.values()].sort((a, b) => b.articles - a.articles || (a.key < b.key ? -1 : 1));
    if (spellings.length > query.limit) {
      spellings.length = query.limit;
      truncated = true;
    }
    return {
      spellings,
      truncated,
      partitionsRead: readOf(walk),
      partitionsFailed: walk.failed,
      usage: { indexQueries: queries, candidatesExamined: 0 },
    };
  }
}
