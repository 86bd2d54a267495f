import type { StatementCache } from "./statement-cache.js";

// Keeps the story size tables (partition-schema.ts: stories, story_sources,
// story_headlines) in step with the story_id postings while a monthly index is
// written or relabelled. Changes are summed per transaction and written once
// per row at the end, as TermWriter does for term counts.

/** One member joining or leaving a story: its story_id term, source term (if any), time and headline. */
export interface StoryMemberChange {
  story: number;
  source: number | undefined;
  published_at: string;
  headline: string | null;
}

export class StoryTally {
  private readonly sources = new Map<number, Map<number, number>>();
  private readonly headlines = new Map<number, Map<string, number>>();
  /** The newest member joining each story in this transaction. */
  private readonly newest = new Map<number, string>();
  /** Stories that lost a member: their newest is read again from the postings. */
  private readonly shrunk = new Set<number>();

  constructor(private readonly statements: StatementCache) {}

  begin(): void {
    this.sources.clear();
    this.headlines.clear();
    this.newest.clear();
    this.shrunk.clear();
  }

  add(member: StoryMemberChange): void {
    this.count(member, 1);
    const seen = this.newest.get(member.story);
    if (seen === undefined || member.published_at > seen) this.newest.set(member.story, member.published_at);
  }

  remove(member: StoryMemberChange): void {
    this.count(member, -1);
    this.shrunk.add(member.story);
  }

  private count(member: StoryMemberChange, delta: number): void {
    if (member.source !== undefined) bump(this.sources, member.story, member.source, delta);
    if (member.headline !== null) bump(this.headlines, member.story, member.headline, delta);
    // A story without a source or headline still needs its row (its newest member).
    if (!this.sources.has(member.story)) this.sources.set(member.story, new Map());
  }

  /** Writes the transaction's changes. Call inside the transaction, after the postings are written. */
  commit(): void {
    const outlets = new Map<number, number>();
    for (const [story, bySource] of this.sources) {
      let gained = 0;
      for (const [source, delta] of bySource) gained += this.apply("story_sources", "source", story, source, delta);
      outlets.set(story, gained);
    }
    for (const [story, byHeadline] of this.headlines) {
      for (const [headline, delta] of byHeadline) this.apply("story_headlines", "headline", story, headline, delta);
    }
    const upsert = this.statements.get(
      `INSERT INTO stories (story, outlets, newest) VALUES (?, ?, ?)
       ON CONFLICT (story) DO UPDATE SET outlets = outlets + excluded.outlets, newest = max(newest, excluded.newest)`,
    );
    const newestOf = this.statements.get(
      "SELECT max(a.published_at) FROM postings p JOIN articles a ON a.rowid = p.article WHERE p.term = ?",
    );
    const setNewest = this.statements.get("UPDATE stories SET newest = ? WHERE story = ?");
    const drop = this.statements.get("DELETE FROM stories WHERE story = ?");
    for (const [story, gained] of outlets) {
      upsert.run(story, gained, this.newest.get(story) ?? "");
      if (!this.shrunk.has(story)) continue;
      const newest = newestOf.pluck().get(story) as string | null;
      if (newest === null) drop.run(story);
      else setNewest.run(newest, story);
    }
    this.begin();
  }

  /** Adds `delta` members to a (story, value) row, dropping it at zero; returns 1 for a new row, -1 for a dropped one. */
  private apply(table: string, column: string, story: number, value: number | string, delta: number): number {
    if (delta === 0) return 0;
    if (delta > 0) {
      // The write path: one statement, which says whether the row is new.
      const after = this.statements
        .get(
          `INSERT INTO ${table} (story, ${column}, articles) VALUES (?, ?, ?)
           ON CONFLICT (story, ${column}) DO UPDATE SET articles = articles + excluded.articles RETURNING articles`,
        )
        .pluck()
        .get(story, value, delta) as number;
      return after === delta ? 1 : 0;
    }
    const before =
      (this.statements.get(`SELECT articles FROM ${table} WHERE story = ? AND ${column} = ?`).pluck().get(story, value) as
        number | undefined) ?? 0;
    if (before + delta > 0) {
      this.statements.get(`UPDATE ${table} SET articles = ? WHERE story = ? AND ${column} = ?`).run(before + delta, story, value);
      return 0;
    }
    this.statements.get(`DELETE FROM ${table} WHERE story = ? AND ${column} = ?`).run(story, value);
    return before > 0 ? -1 : 0;
  }
}

function bump<K>(map: Map<number, Map<K, number>>, story: number, key: K, delta: number): void {
  let inner = map.get(story);
  if (inner === undefined) map.set(story, (inner = new Map()));
  inner.set(key, (inner.get(key) ?? 0) + delta);
}
