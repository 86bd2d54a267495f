import type { StoryFeatures } from "../domain/stories/story-features.js";
import { indexKeys } from "../domain/stories/story-keys.js";
import type { StoryCandidate } from "../ports/story-store.js";

// The articles of the publication days a story store holds in memory (both
// sqlite/story-store.ts and postgres/story-store.ts): each in a slot, with a
// key index per day (story-keys.ts), so counting the keys a new article shares
// with them needs no query and no JSON. Which days to hold, and how they are
// loaded from the store's tables, is `hold`'s, shared by both stores.

export const DAY_MS = 86_400_000;

/** The publication day (days since 1970-01-01 UTC) the store files an article under. */
export function dayOf(timeMs: number): number {
  return Math.floor(timeMs / DAY_MS);
}

/** The days `first` to `last`. */
export function daysBetween(first: number, last: number): number[] {
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** Where a store keeps the clustered articles: how many some days hold, and their rows (features as JSON). */
export interface HeldDaySource {
  count(days: readonly number[]): number | Promise<number>;
  rows(
    days: readonly number[],
  ): Iterable<{ story: string; features: string }> | Promise<Iterable<{ story: string; features: string }>>;
}

/** Every article of one held publication day: their slots, and the slots of each key. */
export interface HeldDay {
  slots: number[];
  keys: Map<string, number[]>;
  /** For eviction: the lookup that last read this day. */
  used: number;
}

/**
 * The held days' articles, each in a slot: its features and story, and in typed arrays what counting shared keys
 * reads (publication time, the lookup that last counted it and how many keys that lookup shares with it).
 */
export class HeldArticles {
  private readonly days = new Map<number, HeldDay>();
  private readonly slots = new Map<string, number>();
  private features: (StoryFeatures | undefined)[] = [];
  private stories: string[] = [];
  private times = new Float64Array(1024);
  private seen = new Uint32Array(1024);
  private shared = new Uint16Array(1024);
  private readonly free: number[] = [];
  private lookups = 0;

  get size(): number {
    return this.slots.size;
  }

  day(day: number): HeldDay | undefined {
    return this.days.get(day);
  }

  addDay(day: number): HeldDay {
    const held: HeldDay = { slots: [], keys: new Map(), used: this.lookups };
    this.days.set(day, held);
    return held;
  }

  slotOf(articleId: string): number | undefined {
    return this.slots.get(articleId);
  }

  story(slot: number): string {
    return this.stories[slot] as string;
  }

  setStory(slot: number, story: string): void {
    this.stories[slot] = story;
  }

  add(day: HeldDay, features: StoryFeatures, story: string): number {
    const slot = this.free.pop() ?? this.features.length;
    if (slot >= this.times.length) this.grow();
    this.features[slot] = features;
    this.stories[slot] = story;
    this.times[slot] = features.timeMs;
    this.seen[slot] = 0;
    this.slots.set(features.id, slot);
    day.slots.push(slot);
    for (const key of indexKeys(features)) {
      const slots = day.keys.get(key);
      if (slots === undefined) day.keys.set(key, [slot]);
      else slots.push(slot);
    }
    return slot;
  }

  /** Held articles of days `first` to `last` within `windowMs` of `features` sharing `minShared` of `keys`, its lookup keys. */
  candidates(
    features: StoryFeatures,
    keys: readonly string[],
    windowMs: number,
    minShared: number,
    first: number,
    last: number,
  ): StoryCandidate[] {
    if (this.lookups === 0xffffffff) {
      this.lookups = 0;
      this.seen.fill(0);
    }
    const lookup = ++this.lookups;
    const { seen, shared } = this;
    const counted: number[] = [];
    for (let d = first; d <= last; d++) {
      const day = this.days.get(d) as HeldDay;
      day.used = lookup;
      for (const key of keys) {
        const slots = day.keys.get(key);
        if (slots === undefined) continue;
        for (const slot of slots) {
          if (seen[slot] === lookup) shared[slot] = (shared[slot] as number) + 1;
          else {
            seen[slot] = lookup;
            shared[slot] = 1;
            counted.push(slot);
          }
        }
      }
    }
    const found: StoryCandidate[] = [];
    for (const slot of counted)
      if ((shared[slot] as number) >= minShared && Math.abs((this.times[slot] as number) - features.timeMs) <= windowMs)
        found.push({ features: this.features[slot] as StoryFeatures, story: this.stories[slot] as string });
    return found;
  }

  /** Evicts the least recently read days other than `keep` until at most `limit` articles are held. */
  evictBeyond(limit: number, keep: ReadonlySet<number>): void {
    if (this.size <= limit) return;
    for (const [d, day] of [...this.days].sort((a, b) => a[1].used - b[1].used)) {
      if (this.size <= limit) return;
      if (keep.has(d)) continue;
      this.days.delete(d);
      for (const slot of day.slots) {
        this.slots.delete((this.features[slot] as StoryFeatures).id);
        this.features[slot] = undefined;
        this.free.push(slot);
      }
    }
  }

  /**
   * Makes `days` held, loading the missing ones from `source` and evicting the least recently read others; false
   * (and nothing loaded) when they hold more than `limit` articles.
   */
  async hold(days: readonly number[], limit: number, source: HeldDaySource): Promise<boolean> {
    const missing: number[] = [];
    let needed = 0;
    for (const day of days) {
      const held = this.days.get(day);
      if (held === undefined) missing.push(day);
      else needed += held.slots.length;
    }
    if (missing.length === 0) return true;
    const loading = await source.count(missing);
    if (needed + loading > limit) return false;
    this.evictBeyond(limit - loading, new Set(days));
    const loaded = new Map(missing.map((day) => [day, this.addDay(day)]));
    for (const row of await source.rows(missing)) {
      const features = JSON.parse(row.features) as StoryFeatures;
      const day = loaded.get(dayOf(features.timeMs));
      if (day !== undefined) this.add(day, features, row.story);
    }
    return true;
  }

  clear(): void {
    this.days.clear();
    this.slots.clear();
    this.features = [];
    this.stories = [];
    this.free.length = 0;
  }

  private grow(): void {
    const size = this.times.length * 2;
    const times = new Float64Array(size);
    times.set(this.times);
    const seen = new Uint32Array(size);
    seen.set(this.seen);
    const shared = new Uint16Array(size);
    shared.set(this.shared);
    this.times = times;
    this.seen = seen;
    this.shared = shared;
  }
}
