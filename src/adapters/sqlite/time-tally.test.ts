import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { TALLY_SCHEMA } from "./partition-schema.js";
import { StatementCache } from "./statement-cache.js";
import { TimeTally } from "./time-tally.js";

// The time tallies kept per day and per hour on a real SQLite database: what
// the rows say after writes and story moves, each in its own transaction.

function tallied() {
  const db = new Database(":memory:");
  db.exec(TALLY_SCHEMA);
  const tally = new TimeTally(new StatementCache(db));
  const inTransaction = (body: () => void) =>
    db.transaction(() => {
      tally.begin();
      body();
      tally.commit();
    })();
  const row = (span: string) =>
    db.prepare("SELECT articles, stories, outlets, first, last FROM tallies WHERE span = ?").get(span) as
      { articles: number; stories: number; outlets: number; first: string; last: string } | undefined;
  return { db, tally, inTransaction, row };
}

describe("TimeTally", () => {
  it("counts articles, distinct stories and publishers per day and per hour, with the first and last time", () => {
    const { tally, inTransaction, row } = tallied();
    inTransaction(() => {
      tally.add({ published_at: "20240101101500", story: 1, source: 7 });
      tally.add({ published_at: "20240101104500", story: 1, source: 8 });
      tally.add({ published_at: "20240101230000", story: 2, source: 7 });
    });
    inTransaction(() => tally.add({ published_at: "20240101100000", story: undefined, source: undefined }));
    expect(row("d20240101")).toEqual({ articles: 4, stories: 2, outlets: 2, first: "20240101100000", last: "20240101230000" });
    expect(row("h2024010110")).toEqual({ articles: 3, stories: 1, outlets: 2, first: "20240101100000", last: "20240101104500" });
    expect(row("h2024010123")).toEqual({ articles: 1, stories: 1, outlets: 1, first: "20240101230000", last: "20240101230000" });
  });

  it("a story losing its last article of a span leaves that span's count; one joining it adds", () => {
    const { db, tally, inTransaction, row } = tallied();
    inTransaction(() => {
      tally.add({ published_at: "20240101101500", story: 1, source: 7 });
      tally.add({ published_at: "20240101111500", story: 2, source: 7 });
      tally.add({ published_at: "20240101111600", story: 2, source: 7 });
    });
    // Story 1 merged into story 2: its one article moves.
    inTransaction(() => tally.move({ published_at: "20240101101500", source: 7 }, 1, 2));
    expect(row("d20240101")).toMatchObject({ articles: 3, stories: 1, outlets: 1, first: "20240101101500" });
    expect(row("h2024010110")).toMatchObject({ articles: 1, stories: 1 });
    expect(db.prepare("SELECT story, articles FROM tally_stories WHERE span = 'd20240101'").all()).toEqual([
      { story: 2, articles: 3 },
    ]);
    // One article of story 2 split off into a new story 3.
    inTransaction(() => tally.move({ published_at: "20240101111600", source: 7 }, 2, 3));
    expect(row("d20240101")).toMatchObject({ articles: 3, stories: 2 });
    expect(row("h2024010111")).toMatchObject({ articles: 2, stories: 2 });
  });
});
