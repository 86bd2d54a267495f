import { beforeAll, describe, expect, it } from "vitest";
import { readArticles } from "../../../test/support/gkg-fixtures.js";
import { SAMPLE_FILES } from "../../../test/support/test-server.js";
import { sameStory } from "./same-story.js";
import { storyFeatures, type StoryFeatures } from "./story-features.js";
import { indexKeys, lookupKeys, MIN_SHARED_KEYS } from "./story-keys.js";

// The false-merge classes of issue #19 and the copies they must not cost, on the real records of the bundled
// GDELT batches (2023-07-02 15:30, 2020-02-22, 2015-02-18 translingual).

let byId: Map<string, StoryFeatures>;
beforeAll(async () => {
  const articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.bigquery, SAMPLE_FILES.translingual]);
  byId = new Map(articles.map((article) => [article.id, storyFeatures(article)]));
});

function same(a: string, b: string): boolean {
  const x = byId.get(a);
  const y = byId.get(b);
  if (x === undefined || y === undefined) throw new Error(`no record ${x === undefined ? a : b}`);
  expect(sameStory(y, x)).toBe(sameStory(x, y));
  return sameStory(x, y);
}

describe("one outlet, one title, many pages", () => {
  it("keeps a business listing an outlet repeats on many pages apart", () => {
    // goskagit.com: eight directory pages titled "Christianson's Nursery & Greenhouse", the same 90-word listing.
    expect(same("20230702153000-174", "20230702153000-198")).toBe(false);
    expect(same("20230702153000-221", "20230702153000-785")).toBe(false);
  });

  it("keeps different articles an outlet files under one URL apart", () => {
    // baomoi.com, 2015: twelve records share one URL (so one slug for a headline) but not their text.
    expect(same("20150218224500-T219", "20150218224500-T221")).toBe(false);
    expect(same("20150218224500-T225", "20150218224500-T226")).toBe(false);
    expect(same("20150218224500-T221", "20150218224500-T225")).toBe(false);
  });

  it("still joins one article an outlet carries under two URLs", () => {
    // iHeart stations (710wor and 1061fmtalk, same path), IANS in two sections, RFI in two sections.
    expect(same("20200222221500-965", "20200222221500-1132")).toBe(true);
    expect(same("20200222221500-646", "20200222221500-959")).toBe(true);
    expect(same("20230702153000-410", "20230702153000-505")).toBe(true);
    expect(same("20230702153000-123", "20230702153000-623")).toBe(true);
    // Springfield News-Sun: two versions of one AP story (232 and 288 words, the same names).
    expect(same("20230702153000-339", "20230702153000-817")).toBe(true);
  });
});

describe("one topic, several events", () => {
  it("keeps the race result, a radio message during it and a guide to watching it apart", () => {
    const result = "20230702153000-381"; // Austrian Grand Prix: Max Verstappen dominates penalty-laden race
    const radio = "20230702153000-352"; // Toto Wolff issues terse radio message to Lewis Hamilton during Austrian GP
    const guide = "20230702153000-535"; // F1 Live Stream: How To Watch Austrian Grand Prix Live Stream For FREE!
    const circuit = "20230702153000-902"; // Major announcement on Red Bull Ring's F1 future ahead of Austrian GP
    expect(same(result, guide)).toBe(false);
    expect(same(radio, guide)).toBe(false);
    expect(same(result, radio)).toBe(false);
    expect(same(result, circuit)).toBe(false);
    expect(same(radio, circuit)).toBe(false);
  });

  it("still joins reports of the race result at different outlets", () => {
    const planetf1 = "20230702153000-381";
    const ap = "20230702153000-717"; // Red Bull driver Verstappen wins Austrian GP ahead of ... Leclerc in 2nd
    const tsn = "20230702153000-843"; // Max Verstappen wins Austrian GP ahead of rejuvenated Charles Leclerc in second
    expect(same(planetf1, ap)).toBe(true);
    expect(same(ap, tsn)).toBe(true);
  });

  it("still joins reworded reports of one event that share no actor's name in their headlines", () => {
    // Mirror vs Sky: the M6 milk-tanker crash; 12News vs Brisbane Times: the riots after Nahel's death.
    expect(same("20230702153000-31", "20230702153000-781")).toBe(true);
    expect(same("20230702153000-467", "20230702153000-870")).toBe(true);
  });
});

describe("one person's news told two ways", () => {
  it("joins reports sharing one headline word whose headlines name one person, with most of the same names", () => {
    // AP's "Biden's upcoming European trip is meant to boost NATO..." and PA's "Joe Biden to meet King and PM during
    // July visit to UK" (Ross-shire Journal's copy): only "Biden" in common, and most of the places and people.
    expect(same("20230702153000-385", "20230702153000-678")).toBe(true);
    expect(same("20230702153000-701", "20230702153000-527")).toBe(true); // Washington Times' copy of the AP story, another PA copy
  });

  it("keeps one person's different stories apart when their casts differ", () => {
    // Benzinga on Christie mocking Trump; Yahoo on Trump and DeSantis over Covid; Politico on the GOP field and LGBTQ.
    expect(same("20230702153000-406", "20230702153000-712")).toBe(false);
    expect(same("20230702153000-406", "20230702153000-842")).toBe(false);
  });
});

describe("translated headlines", () => {
  it("joins two outlets' reports in another language", () => {
    // RFI and Europe 1 on Assange's supporters marching in London (French, translated by GDELT).
    expect(same("20200222214500-T16", "20200222214500-T30")).toBe(true);
    // ČTK and Aktuálně.cz, 2015 (no titles: URL slugs), the US on Israel's leaks about the Iran talks.
    expect(same("20150218224500-T9", "20150218224500-T1")).toBe(true);
  });

  it("joins reports in two languages that share no headline word but the same people and names", () => {
    // ABC Color (Spanish) and Big News Network: Erdogan announces a Syria summit with Putin, Merkel and Macron.
    expect(same("20200222214500-T272", "20200222221500-852")).toBe(true);
  });

  it("keeps articles in two languages apart when they share one person, however named the rest", () => {
    // NBC News on Trump and Roger Stone; UNIAN (Ukrainian) on where to watch Wilder-Fury 2: one name in common.
    expect(same("20200222011500-306", "20200222011500-T559")).toBe(false);
  });
});

describe("candidates", () => {
  it("every pair the test joins shares enough lookup keys to be found, whichever arrived first", () => {
    const all = [...byId.values()];
    let joined = 0;
    for (let i = 0; i < all.length; i++)
      for (let j = i + 1; j < all.length; j++) {
        const a = all[i] as StoryFeatures;
        const b = all[j] as StoryFeatures;
        if (!sameStory(a, b)) continue;
        joined++;
        for (const [probe, held] of [
          [a, b],
          [b, a],
        ] as const) {
          const keys = new Set(indexKeys(held));
          expect(lookupKeys(probe).filter((k) => keys.has(k)).length).toBeGreaterThanOrEqual(MIN_SHARED_KEYS);
        }
      }
    expect(joined).toBeGreaterThan(500);
  });
});
