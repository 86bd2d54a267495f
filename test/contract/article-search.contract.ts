import { describe, expect, it } from "vitest";
import { nearestRank } from "../../src/domain/aggregate/percentile-rank.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { candidateBatches } from "../../src/domain/billing/index-usage.js";
import type { CursorPosition } from "../../src/domain/browse-cursor.js";
import { passesCandidateCheck } from "../../src/domain/candidate-check.js";
import type { CandidateCheck } from "../../src/domain/search-query.js";
import { signalValues, type SignalName } from "../../src/domain/vocabularies/signals-v1.js";
import type { ArticleSearch } from "../../src/ports/article-search.js";
import { words } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { filledIndex, type IndexFactory } from "./index-fixture.js";

// What every ArticleSearch adapter must do (ports/article-search.ts), on real
// GKG records of two months, each answer checked against a reader of every article.

/** Browse order: newest first, ties by id, larger first. */
function newestFirst(a: ArticleDetail, b: ArticleDetail): number {
  const [x, y] = [a.published_at ?? "", b.published_at ?? ""];
  return x !== y ? (x < y ? 1 : -1) : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

export function describeArticleSearchContract(name: string, create: IndexFactory<ArticleSearch>): void {
  describe(`ArticleSearch contract: ${name}`, () => {
    const given = filledIndex(create, [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);

    it("browses newest first with an exact total and complete coverage", async () => {
      const result = await given.index.search({ filters: {}, offset: 0, limit: 50 });
      expect(result.total).toBe(given.articles.length);
      expect(result.partitionsFailed).toEqual([]);
      expect(result.partitionsRead.length).toBeGreaterThan(0);
      expect(result.hits.map((h) => h.article.id)).toEqual(
        [...given.articles]
          .sort(newestFirst)
          .slice(0, 50)
          .map((a) => a.id),
      );
      for (const hit of result.hits) expect(hit.score).toBeUndefined();
    });

    it("ranks keyword matches with a score, best first, and counts them all", async () => {
      const result = await given.index.search({ keywords: words("coronavirus"), filters: {}, offset: 0, limit: 10 });
      const expected = given.articles.filter((a) =>
        [a.title ?? "", ...a.persons, ...a.organizations, ...a.names].some((t) => /coronavirus/i.test(t)),
      ).length;
      expect(result.total).toBe(expected);
      expect(result.hits.length).toBe(Math.min(10, expected));
      const scores = result.hits.map((h) => h.score ?? 0);
      for (const score of scores) expect(score).toBeGreaterThan(0);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it("applies exact filters case-insensitively and time bounds inclusively", async () => {
      const fra = given.articles.filter((a) => a.language === "fra");
      const byLanguage = await given.index.search({ filters: { language: "FRA" }, offset: 0, limit: 100 });
      expect(byLanguage.total).toBe(fra.length);

      const stamp = (given.articles[10] as ArticleDetail).published_at as string;
      const sameSecond = given.articles.filter((a) => a.published_at === stamp);
      const exact = await given.index.search({ filters: { from: stamp, to: stamp }, offset: 0, limit: 100 });
      expect(exact.total).toBe(sameSecond.length);
    });

    it("filters on multi-valued fields exactly and case-insensitively, ANDed", async () => {
      const person = "joe biden";
      const withPerson = given.articles.filter((a) => a.persons.includes(person));
      expect(withPerson.length).toBeGreaterThan(0);
      const byPerson = await given.index.search({ filters: { person: "Joe BIDEN" }, offset: 0, limit: 100 });
      expect(byPerson.total).toBe(withPerson.length);
      expect(new Set(byPerson.hits.map((h) => h.article.id))).toEqual(new Set(withPerson.slice(0, 100).map((a) => a.id)));
      const both = withPerson.filter((a) => a.language === "eng" && a.countries.includes("UK")).length;
      const anded = await given.index.search({ filters: { person, language: "eng", country: "uk" }, offset: 0, limit: 1 });
      expect(anded.total).toBe(both);
      const ranked = await given.index.search({ keywords: words("biden"), filters: { person }, offset: 0, limit: 100 });
      for (const hit of ranked.hits) expect(hit.article.persons).toContain(person);
    });

    it("counts facets over the whole match set", async () => {
      const result = await given.index.search({
        filters: { language: "eng" },
        offset: 0,
        limit: 1,
        facets: { fields: ["publisher_country", "source_type"], limit: 100 },
      });
      const eng = given.articles.filter((a) => a.language === "eng");
      expect(result.total).toBe(eng.length);
      const types = result.facets?.source_type;
      expect(types?.approximate).toBe(false);
      for (const { value, count } of types?.values ?? []) {
        expect(count).toBe(eng.filter((a) => a.source_type === value).length);
      }
      const countries = result.facets?.publisher_country;
      const listed = (countries?.values ?? []).reduce((s, v) => s + v.count, 0);
      expect(listed + (countries?.sum_other_doc_count ?? 0)).toBe(eng.filter((a) => a.publisher_country !== null).length);
    });

    it("pages a browse by cursor, disjoint and in order, with no further page at the end", async () => {
      const seen: string[] = [];
      let after: CursorPosition | null = null;
      for (let guard = 0; guard < 100; guard++) {
        const page = await given.index.search({ filters: {}, offset: 0, limit: 97, cursor: { after } });
        expect(page.cursor?.tieGroupCut).toBe(false);
        seen.push(...page.hits.map((h) => h.article.id));
        if (!page.cursor?.next) break;
        after = page.cursor.next;
      }
      expect(seen).toEqual([...given.articles].sort(newestFirst).map((a) => a.id));
    });

    it("pages by offset without overlap", async () => {
      const all = await given.index.search({ filters: {}, offset: 0, limit: 30 });
      const second = await given.index.search({ filters: {}, offset: 15, limit: 15 });
      expect(second.hits.map((h) => h.article.id)).toEqual(all.hits.slice(15).map((h) => h.article.id));
    });

    it("says what a spent budget left unread: timed out, never a silent short answer", async () => {
      const result = await given.index.search({ filters: {}, offset: 0, limit: 10, budgetMs: 0 });
      for (const failure of result.partitionsFailed) expect(failure.kind).toBe("timed_out");
      if (result.partitionsFailed.length === 0) expect(result.total).toBe(given.articles.length);
      else expect(result.total).toBeLessThan(given.articles.length);
    });

    it("checks geographic candidates: only passing given.articles, an exact total below the limit, and batches of 500 used", async () => {
      const located = given.articles.flatMap((a) =>
        a.location_details.filter((l) => l.kind === "city" && l.latitude !== null && l.longitude !== null),
      );
      const city = located[Math.floor(located.length / 2)];
      expect(city).toBeDefined();
      const check: CandidateCheck = {
        area: { kind: "near", latitude: city?.latitude as number, longitude: city?.longitude as number, radius_km: 50 },
      };
      const expected = given.articles.filter((a) => passesCandidateCheck(a, check));
      expect(expected.length).toBeGreaterThan(0);
      const result = await given.index.search({ filters: {}, check, offset: 0, limit: 100 });
      expect(result.candidates?.approximate).toBe(false);
      expect(result.total).toBe(expected.length);
      expect(result.candidates?.passed).toBe(expected.length);
      expect(new Set(result.hits.map((h) => h.article.id))).toEqual(
        new Set(
          [...expected]
            .sort(newestFirst)
            .slice(0, 100)
            .map((a) => a.id),
        ),
      );
      // Spec section 4, rule 6: batches of 500, up to 2,000 candidates (what the call is charged).
      expect(candidateBatches(result.usage)).toBeGreaterThanOrEqual(1);
      expect(candidateBatches(result.usage)).toBeLessThanOrEqual(4);
      // Without the filter nothing is examined.
      expect(candidateBatches((await given.index.search({ filters: {}, offset: 0, limit: 1 })).usage)).toBe(0);
    });

    it("gives a signal's nearest-rank percentile over the matches carrying it", async () => {
      const carried = new Map<SignalName, number[]>();
      for (const a of given.articles) {
        for (const [signal, value] of signalValues(a.signals)) carried.set(signal, [...(carried.get(signal) ?? []), value]);
      }
      const [signal, values] = [...carried].sort((x, y) => y[1].length - x[1].length)[0] as [SignalName, number[]];
      const sorted = Float64Array.from(values).sort();
      for (const percentile of [50, 90, 99.9]) {
        const found = await given.index.signalPercentile({ filters: {} }, signal, percentile);
        expect(found.partitionsFailed).toEqual([]);
        expect(found.approximate).toBe(false);
        expect(found.value).toBe(nearestRank(sorted, percentile));
      }
      const none = await given.index.signalPercentile({ filters: { language: "zzz" } }, signal, 50);
      expect(none.value).toBeNull();
    });

    it("counts matches per time bucket, with distinct stories and publishers exact unless marked approximate", async () => {
      const from = "20230702000000";
      const to = "20230702235959";
      const result = await given.index.aggregate({
        filters: { from, to },
        interval: "hour",
        metrics: { stories: true, outlets: true },
      });
      expect(result.partitionsFailed).toEqual([]);
      const inDay = given.articles.filter((a) => (a.published_at ?? "") >= from && (a.published_at ?? "") <= to);
      for (const row of result.rows) {
        const members = inDay.filter((a) => (a.published_at ?? "").slice(0, 10) === row.bucket.slice(0, 10));
        expect(row.articles, row.bucket).toBe(members.length);
        if (!row.approximate) {
          expect(row.outlets, row.bucket).toBe(new Set(members.map((a) => a.source)).size);
          expect(row.stories, row.bucket).toBe(new Set(members.map((a) => a.story_id ?? a.id)).size);
        }
        const stamps = members.map((a) => a.published_at ?? "").sort();
        expect([row.first, row.last], row.bucket).toEqual([stamps[0], stamps[stamps.length - 1]]);
      }
      expect(result.rows.reduce((sum, r) => sum + r.articles, 0)).toBe(inDay.length);
    });
  });
}
