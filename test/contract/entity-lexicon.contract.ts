import { describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { entityKey } from "../../src/domain/entities/entity-key.js";
import type { EntityLexicon } from "../../src/ports/entity-lexicon.js";
import { SAMPLE_FILES } from "../support/test-server.js";
import { filledIndex, type IndexFactory } from "./index-fixture.js";

// What every EntityLexicon adapter must do (ports/entity-lexicon.ts), on real GKG records.

export function describeEntityLexiconContract(name: string, create: IndexFactory<EntityLexicon>): void {
  describe(`EntityLexicon contract: ${name}`, () => {
    const given = filledIndex(create, [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016, SAMPLE_FILES.bigquery]);

    /** Person spellings keyed `key` and their given.articles (published at or after `from`), the most carried first. */
    const spellingsOf = (key: string, from?: string): Array<[string, number]> => {
      const counts = new Map<string, number>();
      for (const a of given.articles) {
        if (from !== undefined && (a.published_at ?? "") < from) continue;
        for (const p of new Set(a.persons.map((v) => v.toLowerCase()))) {
          if (entityKey("person", p) === key) counts.set(p, (counts.get(p) ?? 0) + 1);
        }
      }
      return [...counts].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    };

    it("finds an entity id's spellings, counted, the most carried first", async () => {
      const found = await given.index.entitySpellings({
        type: "person",
        key: "jill biden",
        lookup: "id",
        counts: true,
        limit: 100,
      });
      expect(found.partitionsFailed).toEqual([]);
      expect(found.spellings.map((s) => [s.key, s.articles])).toEqual(spellingsOf("jill biden"));
      expect(found.truncated).toBe(false);
      for (const s of found.spellings) expect(s.entityKey).toBe("jill biden");
      expect(found.usage.indexQueries).toBeGreaterThanOrEqual(1);
    });

    it("counts spellings within a window, and only asks whether they occur without counts", async () => {
      const from = "20230702140000";
      const windowed = await given.index.entitySpellings({
        type: "person",
        key: "joe biden",
        lookup: "id",
        from,
        counts: true,
        limit: 100,
      });
      expect(windowed.spellings.map((s) => [s.key, s.articles])).toEqual(spellingsOf("joe biden", from));
      const present = await given.index.entitySpellings({
        type: "person",
        key: "joe biden",
        lookup: "id",
        from,
        counts: false,
        limit: 100,
      });
      expect(new Set(present.spellings.map((s) => s.key))).toEqual(new Set(spellingsOf("joe biden", from).map(([k]) => k)));
      for (const s of present.spellings) expect(s.articles).toBe(1);
      const empty = await given.index.entitySpellings({
        type: "person",
        key: "joe biden",
        lookup: "id",
        from: "20990101000000",
        counts: true,
        limit: 100,
      });
      expect(empty.spellings).toEqual([]);
    });

    it("finds a name's spellings by whole words of their keys", async () => {
      const found = await given.index.entitySpellings({
        type: "person",
        key: "biden",
        lookup: "words",
        counts: true,
        limit: 100,
      });
      const expected = new Set(
        given.articles.flatMap((a) => a.persons.filter((p) => ` ${entityKey("person", p)} `.includes(" biden "))),
      );
      expect(new Set(found.spellings.map((s) => s.key))).toEqual(expected);
      for (const s of found.spellings) expect(s.entityKey).toBe(entityKey("person", s.value));
    });

    it("keeps at most `limit` spellings, the most carried, and says the rest were left out", async () => {
      const all = await given.index.entitySpellings({
        type: "person",
        key: "biden",
        lookup: "words",
        counts: true,
        limit: 100,
      });
      expect(all.spellings.length).toBeGreaterThan(2);
      const top = await given.index.entitySpellings({ type: "person", key: "biden", lookup: "words", counts: true, limit: 2 });
      expect(top.truncated).toBe(true);
      expect(top.spellings.map((s) => s.articles)).toEqual(all.spellings.slice(0, 2).map((s) => s.articles));
    });
  });
}
