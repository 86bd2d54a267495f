import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArticles, words } from "../../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../../test/support/test-server.js";
import type { ArticleDetail } from "../../domain/article.js";
import { ArticlePartition } from "./article-partition.js";
import { FTS_SCORE } from "./bm25.js";
import { toFtsMatch } from "./fts-match.js";
import type { PartitionSearch } from "./match-conditions.js";
import { candidates, countMatches, TITLE_FIRST_MATCHES } from "./partition-search.js";
import { PartitionWriter } from "./partition-writer.js";
import { prepareArticle } from "./prepared-article.js";

// A keyword search's candidates in an index with many matches, where the title
// matches are ranked first: every candidate carries its score on the whole
// query, matches the whole query (its exclusions too), and the candidates are
// those of ranking every match whenever enough titles hold the query.

const GROUP = 800;
const N = 30;

let dir: string;
let partition: ArticlePartition;

/**
 * Real articles, fresh ids; "harbor" in the titles of one group and the entities of two others, "quay" in the
 * entities of those three groups and in ten titles of the fourth.
 */
function corpus(real: readonly ArticleDetail[]): ArticleDetail[] {
  return Array.from({ length: GROUP * 4 }, (_, i) => {
    const a = real[i % real.length] as ArticleDetail;
    const group = Math.floor(i / GROUP);
    const title = group === 0 ? `${a.title ?? ""} harbor` : a.title;
    const organizations = [
      ...a.organizations,
      ...(group === 1 ? ["harbor authority"] : group === 2 ? ["harbor pilots"] : []),
      ...(group < 3 ? ["quay"] : []),
      // Title matches the query "harbor -authority" excludes by their entities.
      ...(group === 0 && i % 4 === 0 ? ["port authority"] : []),
    ];
    // "quay" is in few titles: too few for the title matches alone.
    const titled = group === 3 && i % GROUP < 10 ? `${a.title ?? ""} quay` : title;
    return { ...a, id: `${a.id}-${i}`, title: titled, organizations };
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "title-first-"));
  const real = await readArticles([SAMPLE_FILES.batch2023]);
  const writer = new PartitionWriter(new ArticlePartition("202307", join(dir, "articles-202307.db"), { create: true }));
  writer.write(corpus(real).map(prepareArticle));
  writer.partition.close();
  partition = new ArticlePartition("202307", join(dir, "articles-202307.db"), { create: false });
});

afterAll(() => {
  partition.close();
  rmSync(dir, { recursive: true, force: true });
});

function searchFor(q: string): PartitionSearch {
  const { count, bounds } = partition.stats();
  return { match: toFtsMatch(words(q)), terms: [], ranges: [], articles: count, newest: bounds?.newest ?? "" };
}

/** Every match scored on the whole query: rowid to score. */
function everyScore(search: PartitionSearch): Map<number, number> {
  const rows = partition.statements
    .get(`SELECT rowid, ${FTS_SCORE} FROM articles_fts WHERE articles_fts MATCH ?`)
    .raw()
    .all(search.match) as Array<[number, number]>;
  return new Map(rows);
}

/** The top n of every match, as ranking them all gives it. */
function exactTop(scores: Map<number, number>, n: number): number[] {
  return [...scores]
    .sort((a, b) => b[1] - a[1] || b[0] - a[0])
    .slice(0, n)
    .map(([rowid]) => rowid);
}

describe("keyword candidates in an index with many matches", () => {
  it("rank the title matches first, each scored on the whole query, as ranking every match does", () => {
    const search = searchFor("harbor");
    const matches = countMatches(partition, search);
    expect(matches).toBeGreaterThanOrEqual(TITLE_FIRST_MATCHES);
    const hits = candidates(partition, search, N, undefined, matches);
    const scores = everyScore(search);
    expect(hits).toHaveLength(N);
    for (const hit of hits) expect(hit.score).toBeCloseTo(scores.get(hit.rowid) as number, 9);
    expect(hits.map((h) => h.rowid)).toEqual(exactTop(scores, N));
  });

  it("leave out a title match the query excludes by its entities", () => {
    const search = searchFor("harbor -authority");
    const hits = candidates(partition, search, N, undefined, countMatches(partition, search));
    const scores = everyScore(search);
    expect(hits).toHaveLength(N);
    for (const hit of hits) expect(scores.has(hit.rowid)).toBe(true);
    expect(hits.map((h) => h.rowid)).toEqual(exactTop(scores, N));
  });

  it("rank every match when too few titles hold the query", () => {
    const search = searchFor("quay");
    const matches = countMatches(partition, search);
    expect(matches).toBeGreaterThanOrEqual(TITLE_FIRST_MATCHES);
    const hits = candidates(partition, search, N, undefined, matches);
    expect(hits.map((h) => h.rowid)).toEqual(exactTop(everyScore(search), N));
  });
});
