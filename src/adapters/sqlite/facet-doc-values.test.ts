import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readArticles, words } from "../../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../../test/support/test-server.js";
import type { ArticleDetail } from "../../domain/article.js";
import { browseStamp } from "../../domain/browse-cursor.js";
import { FILTER_FIELDS, filterValuesOf, foldValue, type FilterField } from "../../domain/filter-fields.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import { ArticlePartition } from "./article-partition.js";
import { partitionPath } from "./catalog/partition-catalog.js";
import { facetDocValues } from "./facet-doc-values.js";
import type { PartitionSearch } from "./match-conditions.js";
import { countFacets } from "./partition-facets.js";
import { ScanBudget } from "./scan-budget.js";
import { toFtsMatch } from "./fts-match.js";
import { PartitionReader, type SearchPart } from "./partition-reads.js";
import { PartitionWriter } from "./partition-writer.js";
import { prepareArticle } from "./prepared-article.js";

// Facets counted from the doc values a read connection holds in memory, on a
// real monthly index that another connection keeps writing to: the counts
// must be those of every article the index holds at the time, including
// articles written and stories moved after the values were first read.

const MONTH = "202307";
const FIELDS: FilterField[] = ["source", "person", "topic", "story_id"];

let dir: string;
let articles: ArticleDetail[];
let writer: PartitionWriter;
const reader = (): PartitionReader => new PartitionReader(dir);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "doc-values-"));
  articles = (await readArticles([SAMPLE_FILES.batch2023])).map((a, i) => ({ ...a, story_id: `s${i % 7}` }));
  writer = new PartitionWriter(new ArticlePartition(MONTH, partitionPath(dir, MONTH), { create: true }));
});

afterAll(() => {
  writer.partition.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each field's counts over `matching`, as a reader of every article would count them. */
function expected(matching: readonly ArticleDetail[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const field of FIELDS) {
    const counts: Record<string, number> = {};
    for (const article of matching) {
      for (const v of filterValuesOf(article)) if (v.code === FILTER_FIELDS[field].code) counts[v.key] = (counts[v.key] ?? 0) + 1;
    }
    out[field] = counts;
  }
  return out;
}

function search(on: PartitionReader, filters: ArticleFilters, match?: string): SearchPart {
  const codes = FIELDS.map((f) => FILTER_FIELDS[f].code);
  return on.run({
    job: "search",
    month: MONTH,
    args: { filters, n: 10, facets: { codes, depth: 100_000 }, ...(match === undefined ? {} : { match }) },
  }) as SearchPart;
}

function counted(part: SearchPart): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const field of FIELDS) {
    const facet = part.facets?.get(FILTER_FIELDS[field].code);
    out[field] = Object.fromEntries((facet?.top ?? []).map((t) => [t.key, t.count]));
  }
  return out;
}

/** The person carried by the most of `written`: a filter with many matches. */
function commonPerson(written: readonly ArticleDetail[]): string {
  const counts = new Map<string, number>();
  for (const a of written) for (const p of a.persons) counts.set(foldValue(p), (counts.get(foldValue(p)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] as string;
}

describe("facet doc values held in memory", () => {
  it("count every match of a filter, a window and keywords, and follow the articles written and moved since", () => {
    const half = Math.floor(articles.length / 2);
    writer.write(articles.slice(0, half).map(prepareArticle));
    const on = reader();
    const person = commonPerson(articles.slice(0, half));
    const withPerson = (written: readonly ArticleDetail[]): ArticleDetail[] =>
      written.filter((a) => a.persons.some((p) => foldValue(p) === person));

    const first = search(on, { person });
    expect(first.total).toBe(withPerson(articles.slice(0, half)).length);
    expect(counted(first)).toEqual(expected(withPerson(articles.slice(0, half))));

    // Another connection writes the rest and moves articles between stories: the same reader counts them all.
    writer.write(articles.slice(half).map(prepareArticle));
    // Articles the doc values already hold, among the matches.
    const moved = withPerson(articles.slice(0, half))
      .filter((a) => a.story_id !== "s2")
      .slice(0, 5);
    expect(moved.length).toBeGreaterThan(0);
    writer.relabel(
      "s2",
      moved.map((a) => a.id),
    );
    const now = articles.map((a) => (moved.includes(a) ? { ...a, story_id: "s2" } : a));
    const second = search(on, { person });
    expect(second.total).toBe(withPerson(now).length);
    expect(counted(second)).toEqual(expected(withPerson(now)));

    // A window that cuts into the index reads the article rows; keywords the FTS index.
    const sorted = now.map(browseStamp).sort();
    const from = sorted[Math.floor(sorted.length / 2)] as string;
    const windowed = search(on, { person, from });
    expect(counted(windowed)).toEqual(expected(withPerson(now).filter((a) => browseStamp(a) >= from)));
    const match = toFtsMatch(words(person));
    const ids = new Set(
      writer.partition.db
        .prepare("SELECT a.id FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid WHERE articles_fts MATCH ?")
        .pluck()
        .all(match) as string[],
    );
    const keyword = search(on, {}, match);
    expect(keyword.total).toBe(ids.size);
    expect(ids.size).toBeGreaterThan(0);
    expect(counted(keyword)).toEqual(expected(now.filter((a) => ids.has(a.id))));
  });

  it("count the articles they do not hold yet from their rows, and read those rows only while the query has time", () => {
    const month = "202308";
    const other = new PartitionWriter(new ArticlePartition(month, partitionPath(dir, month), { create: true }));
    const half = Math.floor(articles.length / 2);
    other.write(articles.slice(0, half).map(prepareArticle));
    const partition = new ArticlePartition(month, partitionPath(dir, month), { create: false });
    const codes = FIELDS.map((f) => FILTER_FIELDS[f].code);
    const person = commonPerson(articles);
    const searchOf = (): PartitionSearch => {
      const { count, bounds } = partition.stats();
      return { terms: partition.resolve({ person }) ?? [], ranges: [], articles: count, newest: bounds?.newest ?? "" };
    };
    const countedHere = (budget: ScanBudget): Record<string, Record<string, number>> => {
      const facets = countFacets(partition, searchOf(), codes, 100_000, budget).facets;
      return Object.fromEntries(
        FIELDS.map((field) => [
          field,
          Object.fromEntries((facets.get(FILTER_FIELDS[field].code)?.top ?? []).map((t) => [t.key, t.count])),
        ]),
      );
    };
    const withPerson = (written: readonly ArticleDetail[]): ArticleDetail[] =>
      written.filter((a) => a.persons.some((p) => foldValue(p) === person));

    // No time left to read doc values: every match is counted from its row (fewer than the budget's first check).
    expect(countedHere(new ScanBudget(Date.now()))).toEqual(expected(withPerson(articles.slice(0, half))));
    expect(facetDocValues(partition, [FILTER_FIELDS.person.code], 0).get(FILTER_FIELDS.person.code)?.through).toBe(0);
    // Time enough: read, then counted from them.
    expect(countedHere(new ScanBudget())).toEqual(expected(withPerson(articles.slice(0, half))));
    const heldPersons = facetDocValues(partition, [FILTER_FIELDS.person.code], 0).get(FILTER_FIELDS.person.code);
    expect(heldPersons?.through).toBe(half);
    // Written since, and no time to read them: the held half from memory, the rest from the rows.
    other.write(articles.slice(half).map(prepareArticle));
    expect(countedHere(new ScanBudget(Date.now()))).toEqual(expected(withPerson(articles)));
    expect(heldPersons?.through).toBe(half);
    partition.close();
    other.partition.close();
  });
});
