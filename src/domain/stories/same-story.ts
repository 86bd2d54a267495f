import type { StoryFeatures } from "./story-features.js";

// Whether two articles report the same event. The test is symmetric and looks
// only at the two articles, so clusters (connected components of this test)
// come out the same whatever order articles arrive in. Merging two different
// events is worse than missing a copy, so every rule is strict; the thresholds
// were chosen against the labelled set in eval/stories (npm run eval:stories).

export const STORY_WINDOW_MS = 72 * 3_600_000;

/** Recorded in stories.db and the docs: clusters from another version are not mixed with these. */
export const CLUSTERING_VERSION = "stories-v2";

/** Every pair the test accepts shares at least this many headline words, so candidates are looked up by it. */
export const MIN_SHARED_WORDS = 2;

export function sameStory(a: StoryFeatures, b: StoryFeatures): boolean {
  if (Math.abs(a.timeMs - b.timeMs) > STORY_WINDOW_MS) return false;
  // Shared headline words, and how many of them are words rather than numbers (numbers alone are too common).
  let shared = 0;
  let sharedWords = 0;
  for (const w of a.titleWords)
    if (b.titleWords.includes(w)) {
      shared++;
      if (!isNumber(w)) sharedWords++;
    }
  if (shared < MIN_SHARED_WORDS) return false;
  const smaller = Math.min(a.titleWords.length, b.titleWords.length);
  const jaccard = shared / (a.titleWords.length + b.titleWords.length - shared);
  // The same headline, give or take an outlet's edits: syndicated copies.
  if (smaller >= 3 && shared / smaller >= 0.8 && jaccard >= 0.5) return true;
  // The rules below join reworded headlines about one event at different outlets. One outlet's own
  // templates, columns and tickers share words and names without being one story.
  if (a.source !== null && a.source === b.source) return false;
  const sharedNames = intersectionSize(a.entities, b.entities) + intersectionSize(a.places, b.places);
  // Many of the same headline words, and a name unless the overlap is large:
  // "shooting at a party leaves 2 dead" is many events, "Baltimore" in both headlines is one.
  if (sharedWords >= 4) {
    if (jaccard >= 0.4) return true;
    if (jaccard >= 0.25 && (sharedNames >= 1 || sharesNamedWord(a, b))) return true;
  }
  // A few headline words and the same cast: reactions and follow-ups to one event name its people.
  const names = a.entities.length + a.places.length + b.entities.length + b.places.length - sharedNames;
  if (sharedNames >= 2 && sharedNames / names >= 0.2) return true;
  const sharedPersons = intersectionSize(a.persons, b.persons);
  return sharedPersons >= 3 && sharedPersons / (a.persons.length + b.persons.length - sharedPersons) >= 0.15;
}

/** A shared headline word (not a number) that is part of a name in either article. */
function sharesNamedWord(a: StoryFeatures, b: StoryFeatures): boolean {
  return a.titleWords.some(
    (w) => !isNumber(w) && b.titleWords.includes(w) && (a.nameWords.includes(w) || b.nameWords.includes(w)),
  );
}

function isNumber(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return word.length > 0;
}

/**
 * Counts by comparing every pair: the lists are short (a headline's words, an article's names), and most pairs
 * tested are not one story, so allocating a Set per call cost more than the comparisons.
 */
function intersectionSize(a: readonly string[], b: readonly string[]): number {
  let n = 0;
  for (const x of a) if (b.includes(x)) n++;
  return n;
}
