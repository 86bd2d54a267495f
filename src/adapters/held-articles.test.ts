import { beforeAll, describe, expect, it } from "vitest";
import { GkgArticleSource } from "./gdelt/gkg-source.js";
import { storyFeatures, type StoryFeatures } from "../domain/stories/story-features.js";
import { indexKeys, lookupKeys } from "../domain/stories/story-keys.js";
import type { StoryCandidate } from "../ports/story-store.js";
import { parseStamp, toStamp } from "../shared/timestamps.js";
import { HeldArticles } from "./held-articles.js";

// Held articles must find exactly what a scan of every held article finds:
// story clustering's independence from arrival order rests on candidates
// being exhaustive. The real 2023-07-02 15:30 batch is spread back over 10
// days (article i published i % 10 days before its collection), so lookups
// span several held days.

const SAMPLE = new URL("../../data/gkg/20230702153000.gkg.csv.gz", import.meta.url).pathname;
const DAY_MS = 86_400_000;
const WINDOW_MS = 72 * 3_600_000;

let features: StoryFeatures[];

beforeAll(async () => {
  const source = await GkgArticleSource.create();
  features = [];
  for await (const record of source.read(SAMPLE)) {
    if (!record.ok) continue;
    const article = record.article;
    const collected = parseStamp(article.collected_at as string) as number;
    article.published_at = toStamp(collected - (features.length % 10) * DAY_MS);
    features.push(storyFeatures(article));
  }
});

function dayOf(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

/** Holds every article on its publication day, each a story of its own. */
function holdAll(list: readonly StoryFeatures[]): HeldArticles {
  const held = new HeldArticles();
  for (const f of list) held.add(held.day(dayOf(f.timeMs)) ?? held.addDay(dayOf(f.timeMs)), f, f.id);
  return held;
}

/** What the held articles must answer: every article within the window sharing `min` keys. */
function scan(list: readonly StoryFeatures[], probe: StoryFeatures, min: number): string[] {
  const keys = new Set(lookupKeys(probe));
  return list
    .filter((f) => Math.abs(f.timeMs - probe.timeMs) <= WINDOW_MS && indexKeys(f).filter((k) => keys.has(k)).length >= min)
    .map((f) => f.id)
    .sort();
}

function lookup(held: HeldArticles, probe: StoryFeatures, min: number): StoryCandidate[] {
  return held.candidates(
    probe,
    lookupKeys(probe),
    WINDOW_MS,
    min,
    dayOf(probe.timeMs - WINDOW_MS),
    dayOf(probe.timeMs + WINDOW_MS),
  );
}

/** Days the window around `probe` spans, made present (empty) so a lookup may read them. */
function spanDays(held: HeldArticles, probe: StoryFeatures): void {
  for (let d = dayOf(probe.timeMs - WINDOW_MS); d <= dayOf(probe.timeMs + WINDOW_MS); d++) if (!held.day(d)) held.addDay(d);
}

describe("HeldArticles", () => {
  it("holds more than its first slot arrays and finds exactly the articles a full scan finds", () => {
    // The batch and a copy of it published half a day later.
    const all = [...features, ...features.map((f) => ({ ...f, id: `${f.id}-copy`, timeMs: f.timeMs + DAY_MS / 2 }))];
    const held = holdAll(all);
    expect(held.size).toBe(all.length);
    let found = 0;
    for (const probe of all.filter((_, i) => i % 7 === 0)) {
      spanDays(held, probe);
      for (const min of [1, 2, 3]) {
        const got = lookup(held, probe, min)
          .map((c) => c.features.id)
          .sort();
        expect(got).toEqual(scan(all, probe, min));
        found += got.length;
      }
    }
    // The sample has real overlaps: the comparison is not between empty lists.
    expect(found).toBeGreaterThan(300);
  });

  it("counts each shared word once per lookup, however many lookups came before", () => {
    const held = holdAll(features);
    const probe = features.find((f) => f.titleWords.length >= 3) as StoryFeatures;
    spanDays(held, probe);
    const first = lookup(held, probe, probe.titleWords.length).map((c) => c.features.id);
    for (let i = 0; i < 5; i++) lookup(held, probe, 1);
    expect(lookup(held, probe, probe.titleWords.length).map((c) => c.features.id)).toEqual(first);
    expect(first).toContain(probe.id);
  });

  it("answers each candidate with the story it is in now", () => {
    const held = holdAll(features);
    const probe = features[0] as StoryFeatures;
    const slot = held.slotOf(probe.id) as number;
    expect(held.story(slot)).toBe(probe.id);
    held.setStory(slot, "20230702000000-1");
    spanDays(held, probe);
    const self = lookup(held, probe, 1).find((c) => c.features.id === probe.id);
    expect(self?.story).toBe("20230702000000-1");
    expect(held.story(slot)).toBe("20230702000000-1");
  });

  it("evicts the least recently read days outside the ones asked for, and reuses their slots", () => {
    const held = holdAll(features);
    const days = [...new Set(features.map((f) => dayOf(f.timeMs)))].sort((a, b) => a - b);
    const newest = days[days.length - 1] as number;
    const oldest = days[0] as number;
    // Read the oldest day last: the days in between are the least recently read.
    const probe = features.find((f) => dayOf(f.timeMs) === oldest) as StoryFeatures;
    held.candidates(probe, lookupKeys(probe), WINDOW_MS, 1, oldest, oldest);
    const onNewest = features.filter((f) => dayOf(f.timeMs) === newest).length;
    const onOldest = features.filter((f) => dayOf(f.timeMs) === oldest).length;

    held.evictBeyond(onNewest + onOldest, new Set([newest]));
    expect(held.day(newest)).toBeDefined();
    expect(held.day(oldest)).toBeDefined();
    for (const day of days.slice(1, -1)) expect(held.day(day)).toBeUndefined();
    expect(held.size).toBe(onNewest + onOldest);
    const evicted = features.find((f) => dayOf(f.timeMs) === days[1]) as StoryFeatures;
    expect(held.slotOf(evicted.id)).toBeUndefined();

    // An article added now takes a freed slot, and is found; the evicted one stays gone.
    const again = { ...evicted, id: `${evicted.id}-again` };
    const slot = held.add(held.addDay(dayOf(again.timeMs)), again, again.id);
    expect(slot).toBeLessThan(features.length);
    const found = held
      .candidates(again, lookupKeys(again), WINDOW_MS, 1, dayOf(again.timeMs), dayOf(again.timeMs))
      .map((c) => c.features.id);
    expect(found).toContain(again.id);
    expect(found).not.toContain(evicted.id);
  });

  it("holds nothing once cleared", () => {
    const held = holdAll(features);
    held.clear();
    expect(held.size).toBe(0);
    expect(held.slotOf((features[0] as StoryFeatures).id)).toBeUndefined();
    expect(held.day(dayOf((features[0] as StoryFeatures).timeMs))).toBeUndefined();
  });
});
