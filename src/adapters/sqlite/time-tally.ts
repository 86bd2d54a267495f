import type { StatementCache } from "./statement-cache.js";

// Keeps the time tallies (partition-schema.ts TALLY_SCHEMA) in step with the
// articles while a monthly index is written or relabelled: per UTC day and per
// hour of published_at, the articles, and which stories and publishers they
// belong to, so a series over the whole index reads one row per bucket. Changes
// are summed per transaction and written once per row at the end, as
// StoryTally does for story sizes.

/** An article counted in (or taken out of) the tallies: its time, story_id term and source term. */
export interface TallyMember {
  published_at: string;
  story: number | undefined;
  source: number | undefined;
}

/** A span's key: `d` + `YYYYMMDD` for a day, `h` + `YYYYMMDDHH` for an hour. */
export function daySpan(day: string): string {
  return `d${day}`;
}

export function hourSpan(hour: string): string {
  return `h${hour}`;
}

interface SpanChange {
  articles: number;
  first: string | null;
  last: string | null;
}

export class TimeTally {
  private readonly spans = new Map<string, SpanChange>();
  private readonly stories = new Map<string, Map<number, number>>();
  private readonly outlets = new Map<string, Map<number, number>>();

  constructor(private readonly statements: StatementCache) {}

  begin(): void {
    this.spans.clear();
    this.stories.clear();
    this.outlets.clear();
  }

  /** A new article: counted in its day and hour. */
  add(member: TallyMember): void {
    for (const span of spansOf(member.published_at)) {
      const change = this.change(span);
      change.articles++;
      if (change.first === null || member.published_at < change.first) change.first = member.published_at;
      if (change.last === null || member.published_at > change.last) change.last = member.published_at;
      this.member(span, member, 1);
    }
  }

  /** An article moving from story `from` to story `to` (a relabel): its time and publisher stay. */
  move(member: Omit<TallyMember, "story">, from: number | undefined, to: number): void {
    for (const span of spansOf(member.published_at)) {
      this.change(span);
      if (from !== undefined) bump(this.stories, span, from, -1);
      bump(this.stories, span, to, 1);
    }
  }

  private change(span: string): SpanChange {
    let change = this.spans.get(span);
    if (change === undefined) this.spans.set(span, (change = { articles: 0, first: null, last: null }));
    return change;
  }

  private member(span: string, member: TallyMember, delta: number): void {
    if (member.story !== undefined) bump(this.stories, span, member.story, delta);
    if (member.source !== undefined) bump(this.outlets, span, member.source, delta);
  }

  /** Writes the transaction's changes. Call inside the transaction. */
  commit(): void {
    if (this.spans.size === 0) return;
    const upsert = this.statements.get(
      `INSERT INTO tallies (span, articles, stories, outlets, first, last) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (span) DO UPDATE SET articles = articles + excluded.articles, stories = stories + excluded.stories,
         outlets = outlets + excluded.outlets, first = min(coalesce(first, excluded.first), coalesce(excluded.first, first)),
         last = max(coalesce(last, excluded.last), coalesce(excluded.last, last))`,
    );
    for (const [span, change] of this.spans) {
      const stories = this.apply("tally_stories", "story", span, this.stories.get(span));
      const outlets = this.apply("tally_outlets", "source", span, this.outlets.get(span));
      if (change.articles === 0 && stories === 0 && outlets === 0) continue;
      upsert.run(span, change.articles, stories, outlets, change.first, change.last);
    }
    this.begin();
  }

  /** Adds each member's delta to its (span, member) row, dropping it at zero; returns the members gained (or lost). */
  private apply(table: string, column: string, span: string, deltas: Map<number, number> | undefined): number {
    if (deltas === undefined) return 0;
    let gained = 0;
    for (const [value, delta] of deltas) {
      if (delta > 0) {
        const after = this.statements
          .get(
            `INSERT INTO ${table} (span, ${column}, articles) VALUES (?, ?, ?)
             ON CONFLICT (span, ${column}) DO UPDATE SET articles = articles + excluded.articles RETURNING articles`,
          )
          .pluck()
          .get(span, value, delta) as number;
        if (after === delta) gained++;
      } else if (delta < 0) {
        const before =
          (this.statements.get(`SELECT articles FROM ${table} WHERE span = ? AND ${column} = ?`).pluck().get(span, value) as
            number | undefined) ?? 0;
        if (before + delta > 0) {
          this.statements
            .get(`UPDATE ${table} SET articles = ? WHERE span = ? AND ${column} = ?`)
            .run(before + delta, span, value);
        } else {
          this.statements.get(`DELETE FROM ${table} WHERE span = ? AND ${column} = ?`).run(span, value);
          if (before > 0) gained--;
        }
      }
    }
    return gained;
  }
}

/** The day and the hour an article falls in. */
function spansOf(publishedAt: string): [string, string] {
  return [daySpan(publishedAt.slice(0, 8)), hourSpan(publishedAt.slice(0, 10))];
}

function bump(map: Map<string, Map<number, number>>, span: string, key: number, delta: number): void {
  let inner = map.get(span);
  if (inner === undefined) map.set(span, (inner = new Map()));
  inner.set(key, (inner.get(key) ?? 0) + delta);
}
