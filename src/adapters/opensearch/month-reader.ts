import type { Client } from "@opensearch-project/opensearch";
import type { IndexCoverage } from "../../ports/index-coverage.js";
import { monthOf, toStamp } from "../../shared/timestamps.js";
import type { ArticleIndices, MonthIndex } from "./article-indices.js";
import { monthTargets } from "./month-targets.js";
import { coverageOf, isUnavailable, unreadCoverage } from "./read-coverage.js";
import { search, type SearchBody, type SearchResponse } from "./search-request.js";

// One read of the monthly indices a window picks (month-targets.ts), with its
// coverage (read-coverage.ts). Every query kind reads through here, so none
// re-derives which months it asked or which failed.

export interface MonthRead<S> {
  /** Absent when nothing could be read. */
  response?: SearchResponse<S>;
  coverage: IndexCoverage;
}

export interface ReadOptions {
  /** Score with term statistics summed over every index asked. */
  dfs?: boolean;
  /** How long the shards may search: past it they answer with what they found (`timed_out`). */
  budgetMs?: number | undefined;
  searchAfter?: Array<string | number>;
}

export class MonthReader {
  /** The last catalog read, to name the months a read could not reach when the catalog itself cannot be read. */
  private known: MonthIndex[] = [];

  constructor(
    readonly client: Client,
    readonly indices: ArticleIndices,
  ) {}

  async read<S>(
    window: { from?: string | undefined; to?: string | undefined },
    body: SearchBody,
    options: ReadOptions = {},
  ): Promise<MonthRead<S>> {
    const first = await this.readOnce<S>(window, body, options, false);
    // A whole request refused may be the catalog's age (an index closed or removed since): ask once more, afresh.
    return first.response === undefined && first.coverage.partitionsFailed.length > 0
      ? this.readOnce<S>(window, body, options, true)
      : first;
  }

  private async readOnce<S>(
    window: { from?: string | undefined; to?: string | undefined },
    body: SearchBody,
    options: ReadOptions,
    fresh: boolean,
  ): Promise<MonthRead<S>> {
    let catalog: MonthIndex[];
    try {
      catalog = await this.indices.months(fresh);
      this.known = catalog;
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      const months = this.known.length > 0 ? this.known.map((m) => m.month) : [monthOf(window.to ?? toStamp(Date.now()))];
      return { coverage: unreadCoverage(months, error) };
    }
    const targets = monthTargets(this.indices.names, catalog, window);
    if (targets.months.length === 0) return { coverage: { partitionsRead: [], partitionsFailed: targets.failed } };
    const request: SearchBody = {
      ...body,
      ...(options.searchAfter ? { search_after: options.searchAfter } : {}),
      ...(options.budgetMs !== undefined ? { timeout: `${Math.max(1, options.budgetMs)}ms` } : {}),
    };
    try {
      const response = await search<S>(this.client, {
        index: targets.index,
        body: request,
        dfs: options.dfs === true,
      });
      return { response, coverage: coverageOf(this.indices.names, targets.months, response, targets.failed) };
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      return { coverage: unreadCoverage(targets.months, error, targets.failed) };
    }
  }
}
