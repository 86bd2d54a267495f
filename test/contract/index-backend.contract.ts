import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { CursorPosition } from "../../src/domain/browse-cursor.js";
import { entityKey } from "../../src/domain/entities/entity-key.js";
import type { IndexBackend } from "../../src/ports/index-backend.js";
import { readArticles, words } from "../support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// What every IndexBackend adapter must do, on real GKG records.

export interface BackendFixture {
  backend: IndexBackend;
  dispose(): Promise<void>;
}

export function describeIndexBackendContract(name: string, create: () => Promise<BackendFixture>): void {
  describe(`IndexBackend contract: ${name}`, () => {
    let fixture: BackendFixture;
    let articles: ArticleDetail[];

    beforeAll(async () => {
      fixture = await create();
      articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);
      await fixture.backend.write(articles);
    });

    afterAll(async () => {
      await fixture.dispose();
    });

    it("stores each article once, by id", async () => {
      expect(await fixture.backend.count()).toBe(articles.length);
      const again = await fixture.backend.write(articles.slice(0, 50));
      expect(again).toEqual({ inserted: 0, unchanged: 50 });
      expect(await fixture.backend.count()).toBe(articles.length);
    });

    it("returns an article exactly as written, and absent for unknown ids", async () => {
      const sample = articles[123] as ArticleDetail;
      expect(await fixture.backend.getArticle(sample.id)).toEqual({ status: "found", article: sample });
      expect(await fixture.backend.getArticle("20230702153000-424242")).toEqual({ status: "absent" });
      expect(await fixture.backend.getArticle("19990101000000-1")).toEqual({ status: "absent" });
    });

    it("reads documents of ids ranked elsewhere, leaving out unknown ids", async () => {
      const wanted = [articles[5] as ArticleDetail, articles[700] as ArticleDetail];
      const { articles: found, partitionsFailed } = await fixture.backend.getArticles([
        wanted[0]?.id as string,
        "20230702153000-424242",
        wanted[1]?.id as string,
      ]);
      expect(partitionsFailed).toEqual([]);
      expect([...found.keys()]).toEqual(wanted.map((a) => a.id));
      expect(found.get(wanted[1]?.id as string)).toEqual(wanted[1]);
    });

    it("ranks nothing by meaning before the embedding stage ran, and says which months lack it", async () => {
      const vector = new Float32Array(384).fill(1 / Math.sqrt(384));
      const near = await fixture.backend.nearest({ vector, model: "some-model", filters: {}, k: 10 });
      expect(near.hits).toEqual([]);
      expect(near.partitionsUnembedded.length).toBeGreaterThan(0);
      expect([...near.partitionsUnembedded].sort()).toEqual([...near.partitionsRead].sort());
      const sample = articles[42] as ArticleDetail;
      expect(await fixture.backend.vectorOf(sample.id, "some-model")).toEqual({
        status: "unembedded",
        story_id: sample.story_id,
      });
      expect(await fixture.backend.vectorOf("20230702153000-424242", "some-model")).toEqual({ status: "absent" });
    });

    it("browses newest first with an exact total", async () => {
      const result = await fixture.backend.search({ filters: {}, offset: 0, limit: 50 });
      expect(result.total).toBe(articles.length);
      expect(result.partitionsFailed).toEqual([]);
      const stamps = result.hits.map((h) => h.article.published_at ?? "");
      expect([...stamps].sort().reverse()).toEqual(stamps);
      for (const hit of result.hits) expect(hit.score).toBeUndefined();
    });

    it("ranks keyword matches with a score and counts them all", async () => {
      const result = await fixture.backend.search({ keywords: words("coronavirus"), filters: {}, offset: 0, limit: 10 });
      const expected = articles.filter((a) =>
        [a.title ?? "", ...a.persons, ...a.organizations, ...a.names].some((t) => /coronavirus/i.test(t)),
      ).length;
      expect(result.total).toBe(expected);
      for (const hit of result.hits) expect(hit.score).toBeGreaterThan(0);
    });

    it("applies exact filters case-insensitively and time bounds inclusively", async () => {
      const fra = articles.filter((a) => a.language === "fra");
      const byLanguage = await fixture.backend.search({ filters: { language: "FRA" }, offset: 0, limit: 100 });
      expect(byLanguage.total).toBe(fra.length);

      const stamp = (articles[10] as ArticleDetail).published_at as string;
      const sameSecond = articles.filter((a) => a.published_at === stamp);
      const exact = await fixture.backend.search({ filters: { from: stamp, to: stamp }, offset: 0, limit: 100 });
      expect(exact.total).toBe(sameSecond.length);
    });

    it("filters on multi-valued fields exactly and case-insensitively, ANDed", async () => {
      const person = "joe biden";
      const withPerson = articles.filter((a) => a.persons.includes(person));
      expect(withPerson.length).toBeGreaterThan(0);
      const byPerson = await fixture.backend.search({ filters: { person: "Joe BIDEN" }, offset: 0, limit: 100 });
      expect(byPerson.total).toBe(withPerson.length);
      expect(new Set(byPerson.hits.map((h) => h.article.id))).toEqual(new Set(withPerson.slice(0, 100).map((a) => a.id)));
      const both = withPerson.filter((a) => a.language === "eng" && a.countries.includes("UK")).length;
      const anded = await fixture.backend.search({ filters: { person, language: "eng", country: "uk" }, offset: 0, limit: 1 });
      expect(anded.total).toBe(both);
      const ranked = await fixture.backend.search({ keywords: words("biden"), filters: { person }, offset: 0, limit: 100 });
      for (const hit of ranked.hits) expect(hit.article.persons).toContain(person);
    });

    it("counts facets over the whole match set", async () => {
      const result = await fixture.backend.search({
        filters: { language: "eng" },
        offset: 0,
        limit: 1,
        facets: { fields: ["publisher_country", "source_type"], limit: 100 },
      });
      const eng = articles.filter((a) => a.language === "eng");
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
        const page = await fixture.backend.search({ filters: {}, offset: 0, limit: 97, cursor: { after } });
        seen.push(...page.hits.map((h) => h.article.id));
        if (!page.cursor?.next) break;
        after = page.cursor.next;
      }
      const all = [...articles].sort((a, b) =>
        a.published_at === b.published_at ? (a.id < b.id ? 1 : -1) : (a.published_at ?? "") < (b.published_at ?? "") ? 1 : -1,
      );
      expect(seen).toEqual(all.map((a) => a.id));
    });

    it("leaves monthly indexes unread once the query's budget is spent, and says so", async () => {
      const result = await fixture.backend.search({ filters: {}, offset: 0, limit: 10, budgetMs: 0 });
      expect(result.partitionsRead.length).toBeGreaterThanOrEqual(1);
      expect(result.partitionsFailed.length).toBeGreaterThan(0);
      for (const failure of result.partitionsFailed) expect(failure.kind).toBe("timed_out");
      expect(result.total).toBeLessThan(articles.length);
    });

    it("pages without overlap", async () => {
      const all = await fixture.backend.search({ filters: {}, offset: 0, limit: 30 });
      const second = await fixture.backend.search({ filters: {}, offset: 15, limit: 15 });
      expect(second.hits.map((h) => h.article.id)).toEqual(all.hits.slice(15).map((h) => h.article.id));
    });

    it("finds an entity's spellings by er-v1 key, counted within a window", async () => {
      const spellingsOf = (key: string, from?: string) => {
        const counts = new Map<string, number>();
        for (const a of articles) {
          if (from !== undefined && (a.published_at ?? "") < from) continue;
          for (const p of new Set(a.persons.map((v) => v.toLowerCase()))) {
            if (entityKey("person", p) === key) counts.set(p, (counts.get(p) ?? 0) + 1);
          }
        }
        return [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
      };
      const id = await fixture.backend.entitySpellings({
        type: "person",
        key: "jill biden",
        lookup: "id",
        counts: true,
        limit: 100,
      });
      expect(id.spellings.map((s) => [s.key, s.articles])).toEqual(spellingsOf("jill biden"));
      expect(id.usage.indexQueries).toBe(1);
      const windowed = await fixture.backend.entitySpellings({
        type: "person",
        key: "joe biden",
        lookup: "id",
        from: "20230702140000",
        counts: true,
        limit: 100,
      });
      expect(windowed.spellings.map((s) => [s.key, s.articles])).toEqual(spellingsOf("joe biden", "20230702140000"));
      expect(windowed.usage.indexQueries).toBe(2);

      const words = await fixture.backend.entitySpellings({
        type: "person",
        key: "biden",
        lookup: "words",
        counts: true,
        limit: 100,
      });
      const expected = new Set(
        articles.flatMap((a) => a.persons.filter((p) => ` ${entityKey("person", p)} `.includes(" biden "))),
      );
      expect(new Set(words.spellings.map((s) => s.key))).toEqual(expected);
      for (const s of words.spellings) expect(s.entityKey).toBe(entityKey("person", s.value));
    });

    it("counts matches per time bucket, with distinct stories and publishers", async () => {
      const from = "20230702000000";
      const to = "20230702235959";
      const result = await fixture.backend.aggregate({
        filters: { from, to },
        interval: "hour",
        metrics: { stories: true, outlets: true },
      });
      const inDay = articles.filter((a) => (a.published_at ?? "") >= from && (a.published_at ?? "") <= to);
      for (const row of result.rows) {
        const members = inDay.filter((a) => (a.published_at ?? "").slice(0, 10) === row.bucket.slice(0, 10));
        expect(row.articles, row.bucket).toBe(members.length);
        expect(row.outlets, row.bucket).toBe(new Set(members.map((a) => a.source)).size);
        expect(row.stories, row.bucket).toBe(new Set(members.map((a) => a.story_id ?? a.id)).size);
        expect(row.approximate).toBe(false);
        const stamps = members.map((a) => a.published_at ?? "").sort();
        expect([row.first, row.last], row.bucket).toEqual([stamps[0], stamps[stamps.length - 1]]);
      }
      expect(result.rows.reduce((sum, r) => sum + r.articles, 0)).toBe(inDay.length);
    });
  });
}
