import type { Client } from "@opensearch-project/opensearch";
import { articleTemplate, type ArticleIndexOptions } from "./article-mapping.js";
import type { IndexNames } from "./index-names.js";

// The monthly article indices of one deployment: their template, put once
// before the first write (a monthly index is then created by the first write
// into its month, from the template, and joins the read alias), and the
// catalog of months a query picks from, kept for CATALOG_TTL_MS so a query
// does not pay a round trip for it (a write from this process, or a read that
// met an index the catalog did not expect, reads it again).

/** How long a catalog read serves queries: a month created by another process is asked within this. */
export const CATALOG_TTL_MS = 1000;

export interface MonthIndex {
  month: string;
  index: string;
  /** False when the index cannot answer (closed, or a primary shard unassigned): the query leaves it out. */
  readable: boolean;
  /** Why it cannot answer. */
  reason?: string;
}

export class ArticleIndices {
  private templatePut: Promise<void> | undefined;
  private catalog: { at: number; months: Promise<MonthIndex[]> } | undefined;

  constructor(
    private readonly client: Client,
    readonly names: IndexNames,
    private readonly options: ArticleIndexOptions,
  ) {}

  /** Puts the template (idempotent: the same body again changes nothing), once per process. */
  ensureTemplate(): Promise<void> {
    this.templatePut ??= this.client.indices
      .putIndexTemplate({ name: this.names.articleTemplate, body: articleTemplate(this.names, this.options) })
      .then(
        () => undefined,
        (error: unknown) => {
          this.templatePut = undefined;
          throw error;
        },
      );
    return this.templatePut;
  }

  /** Every monthly index, oldest first, with whether it can answer; `fresh` reads it again whatever its age. */
  months(fresh = false): Promise<MonthIndex[]> {
    const now = Date.now();
    if (fresh || this.catalog === undefined || now - this.catalog.at > CATALOG_TTL_MS) {
      const months = this.readMonths();
      this.catalog = { at: now, months };
      // A failed read is not kept: the next query asks again.
      months.catch(() => {
        if (this.catalog?.months === months) this.catalog = undefined;
      });
    }
    return this.catalog.months;
  }

  /** Forgets the catalog: the next query reads it (after a write that may have created a month). */
  forget(): void {
    this.catalog = undefined;
  }

  private async readMonths(): Promise<MonthIndex[]> {
    const { body } = await this.client.cat.indices({
      index: this.names.articlePattern,
      format: "json",
      h: ["index", "health", "status"],
      expand_wildcards: "all",
    });
    const rows = body as unknown as Array<{ index: string; health?: string; status?: string }>;
    const out: MonthIndex[] = [];
    for (const row of rows) {
      const month = this.names.monthOf(row.index);
      if (month === undefined) continue;
      const closed = row.status === "close";
      const red = row.health === "red";
      out.push({
        month,
        index: row.index,
        readable: !closed && !red,
        ...(closed ? { reason: "the index is closed" } : red ? { reason: "a primary shard of the index is unassigned" } : {}),
      });
    }
    return out.sort((a, b) => (a.month < b.month ? -1 : 1));
  }
}
