import type { StoryFeatures } from "./story-features.js";

// Whether two articles report the same event. The test is symmetric and looks
// only at the two articles, so clusters (connected components of this test)
// come out the same whatever order articles arrive in. Merging two different
// events is worse than missing a copy, so both rules are strict.

export const STORY_WINDOW_MS = 72 * 3_600_000;

export const CLUSTERING_VERSION = "stories-v1";

/** Every pair the test accepts shares at least this many headline words, so candidates are looked up by it. */
export const MIN_SHARED_WORDS = 2;

export function sameStory(a: StoryFeatures, b: StoryFeatures): boolean {
  if (Math.abs(a.timeMs - b.timeMs) > STORY_WINDOW_MS) return false;
  const shared = intersectionSize(a.titleWords, b.titleWords);
  if (shared === 0) return false;
  const smaller = Math.min(a.titleWords.length, b.titleWords.length);
  const union = a.titleWords.length + b.titleWords.length - shared;
  const jaccard = shared / union;
  // The same headline, give or take an outlet's edits: syndicated copies.
  if (smaller >= 3 && shared / smaller >= 0.8 && jaccard >= 0.5) return true;
  // A reworded headline about one event, at another outlet (one outlet's own templates, columns and
  // tickers share words and names without being one story): shared headline words and the same
  // named people, organisations or places.
  if (a.source !== null && a.source === b.source) return false;
  const sharedNames = intersectionSize(a.entities, b.entities) + intersectionSize(a.places, b.places);
  const names = a.entities.length + a.places.length + b.entities.length + b.places.length - sharedNames;
  // Many of the same headline words (numbers alone are too common), and a shared name unless the overlap is large:
  // "shooting at a party leaves dead" is many events.
  const sharedWords = intersectionSize(wordsOnly(a.titleWords), wordsOnly(b.titleWords));
  if (sharedWords >= 4 && (jaccard >= 0.4 || (jaccard >= 0.25 && sharedNames >= 1))) return true;
  return shared >= 2 && sharedNames >= 2 && sharedNames / names >= 0.2;
}

function wordsOnly(words: readonly string[]): string[] {
  return words.filter((w) => !/^\d+$/.test(w));
}

function intersectionSize(a: readonly string[], b: readonly string[]): number {
  if (a.length > b.length) return intersectionSize(b, a);
  const other = new Set(b);
  let n = 0;
  for (const x of a) if (other.has(x)) n++;
  return n;
}
