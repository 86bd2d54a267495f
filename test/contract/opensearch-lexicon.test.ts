import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { acronymsOf, ENTITY_TYPE_FIELDS, entityKey, type EntityType } from "../../src/domain/entities/entity-key.js";
import { FILTER_FIELDS, foldValue, type FilterFieldSpec } from "../../src/domain/filter-fields.js";
import { sampleOpenSearchIndex, type TestOpenSearch } from "../support/opensearch.js";

// The entity lexicon over OpenSearch against a count made here from the same
// real articles: word and acronym lookups, and entity_id filters.

describe("OpenSearch index: entity spellings", () => {
  let node: TestOpenSearch;
  let index: OpenSearchIndex;
  let articles: ArticleDetail[];

  /** Articles per folded spelling of `type` whose key passes `keep`. */
  function expected(type: EntityType, keep: (key: string) => boolean): Map<string, number> {
    const field: FilterFieldSpec = FILTER_FIELDS[ENTITY_TYPE_FIELDS[type]];
    const counts = new Map<string, number>();
    for (const a of articles) {
      for (const folded of new Set(field.values(a).map(foldValue))) {
        if (keep(entityKey(type, folded))) counts.set(folded, (counts.get(folded) ?? 0) + 1);
      }
    }
    return counts;
  }

  beforeAll(async () => {
    ({ node, index, articles } = await sampleOpenSearchIndex());
  });

  afterAll(async () => {
    await node?.dispose();
  });

  it("finds the spellings whose key holds a name as whole words, counted per article", async () => {
    const found = await index.entitySpellings({ type: "person", key: "biden", lookup: "words", counts: true, limit: 100 });
    const want = expected("person", (key) => ` ${key} `.includes(" biden "));
    expect(new Map(found.spellings.map((s) => [s.key, s.articles]))).toEqual(want);
    for (const s of found.spellings) expect(s.entityKey).toBe(entityKey("person", s.value));
    expect(found.partitionsFailed).toEqual([]);
  });

  it("finds the spellings an acronym stands for, skip words left out", async () => {
    for (const acronym of ["bpd", "aaa", "us"]) {
      const found = await index.entitySpellings({
        type: "organization",
        key: acronym,
        lookup: "acronym",
        counts: true,
        limit: 100,
      });
      const want = expected("organization", (key) => acronymsOf(key).includes(acronym));
      expect(want.size, acronym).toBeGreaterThan(0);
      expect(new Map(found.spellings.map((s) => [s.key, s.articles])), acronym).toEqual(want);
    }
  });

  it("keeps the most carried spellings up to the limit and says when it left some out", async () => {
    const found = await index.entitySpellings({ type: "organization", key: "police", lookup: "words", counts: false, limit: 2 });
    expect(found.spellings).toHaveLength(2);
    expect(found.truncated).toBe(true);
    for (const s of found.spellings) expect(s.articles).toBe(1);
  });

  it("matches an entity_id filter on every spelling of its group", async () => {
    const want = articles.filter((a) => a.persons.some((p) => entityKey("person", p) === "jill biden")).length;
    expect(want).toBeGreaterThan(0);
    const result = await index.search({ filters: { entities: [{ type: "person", key: "jill biden" }] }, offset: 0, limit: 1 });
    expect(result.total).toBe(want);
  });
});
