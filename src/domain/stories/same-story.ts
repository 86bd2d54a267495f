import type { StoryFeatures } from "./story-features.js";

// Whether two articles report the same event. The test is symmetric and looks
// only at the two articles, so clusters (connected components of this test)
// come out the same whatever order articles arrive in. Merging two different
// events is worse than missing a copy, so every rule is strict; the thresholds
// were chosen against the 2023 labelled set in eval/stories and are checked on a
// second set from batches they were not chosen on (npm run eval:stories).

export const STORY_WINDOW_MS = 72 * 3_600_000;

/** Recorded in stories.db and the docs: clusters from another version are not mixed with these. */
export const CLUSTERING_VERSION = "stories-v4";

/** Fewer shared headline words than this need a person both headlines name (story-keys.ts finds such pairs). */
const MIN_SHARED_WORDS = 2;

/** Fewer headline words than this, repeated by one outlet, are a page's label (a listing, a section), not news. */
const MIN_OUTLET_COPY_WORDS = 5;

/** Two copies of one article: the shorter has at least this share of the longer's words. */
const MIN_COPY_LENGTH_RATIO = 0.75;

export function sameStory(a: StoryFeatures, b: StoryFeatures): boolean {
  if (Math.abs(a.timeMs - b.timeMs) > STORY_WINDOW_MS) return false;
  const oneOutlet = a.source !== null && a.source === b.source;
  if (!oneOutlet && inTwoLanguages(a, b) && sameCastInTranslation(a, b)) return true;
  // Shared headline words, and how many of them are words rather than numbers (numbers alone are too common).
  let shared = 0;
  let sharedWords = 0;
  for (const w of a.titleWords)
    if (b.titleWords.includes(w)) {
      shared++;
      if (!isNumber(w)) sharedWords++;
    }
  if (shared < MIN_SHARED_WORDS) return shared === 1 && !oneOutlet && sameActorAndCast(a, b);
  const smaller = Math.min(a.titleWords.length, b.titleWords.length);
  const jaccard = shared / (a.titleWords.length + b.titleWords.length - shared);
  // The same headline, give or take an outlet's edits: syndicated copies. One outlet's pages under one headline are
  // one article (a second section, another station's copy) only when the headline reads as one and the pages carry
  // the same text: a business listing, a masthead or a mislabelled page repeats its label over different pages.
  if (smaller >= 3 && shared / smaller >= 0.8 && jaccard >= 0.5)
    return !oneOutlet || (smaller >= MIN_OUTLET_COPY_WORDS && sameText(a, b));
  // The rules below join reworded headlines about one event at different outlets. One outlet's own
  // templates, columns and tickers share words and names without being one story.
  if (oneOutlet) return false;
  // Most of the headline in common.
  if (sharedWords >= 4 && jaccard >= 0.4) return true;
  const sharedNames = sharedNameCount(a, b);
  // Many headline words, and a name unless the overlap is large: "shooting at a party leaves 2 dead" is many
  // events, "Baltimore" in both headlines is one.
  if (sharedWords >= 4 && jaccard >= 0.25 && (sharedNames >= 1 || sharesNamedWord(a, b))) return true;
  // Less in common. Headlines whose only shared words are one phrase, the name of an occasion or topic ("Austrian
  // Grand Prix", "Fourth of July"), and that name no actor in common, report different events of it however many
  // names the pages share (every driver of the grid): the result, a radio message during the race, a guide to
  // watching it, news about the circuit. Reports of one event share what happened, or who did it.
  if (
    isOnePhrase(a.titleWords, b.titleWords, shared) &&
    isOnePhrase(b.titleWords, a.titleWords, shared) &&
    !sharesNamedWord(a, b)
  )
    return false;
  // A few headline words and the same cast: reactions and follow-ups to one event name its people.
  if (sharedNames >= 2 && sharedNames / nameCount(a, b, sharedNames) >= 0.2) return true;
  const sharedPersons = intersectionSize(a.persons, b.persons);
  return sharedPersons >= 3 && sharedPersons / (a.persons.length + b.persons.length - sharedPersons) >= 0.15;
}

/**
 * One headline word in common, a person both headlines name (by any word of the name), and most of the same names:
 * one person's news told two ways ("Biden's European trip is meant to boost NATO" and "Joe Biden to meet King and PM
 * during July visit to UK"). The cast must be large and mostly shared: one person is in many stories, each with its
 * own cast.
 */
function sameActorAndCast(a: StoryFeatures, b: StoryFeatures): boolean {
  return intersectionSize(a.headlinePersons, b.headlinePersons) > 0 && sharesCast(a, b, 5, 0.3);
}

/**
 * Reports of one event in two languages share no headline words ("Erdogan anuncia cumbre sobre Siria" and "Erdogan to
 * hold Syria summit"), but GDELT extracts a translated article's names from its English translation: the same people
 * and most of the same names are the evidence. Two people, not one: a head of state is in many stories a day.
 */
function sameCastInTranslation(a: StoryFeatures, b: StoryFeatures): boolean {
  return intersectionSize(a.persons, b.persons) >= 2 && sharesCast(a, b, 4, 0.3);
}

function inTwoLanguages(a: StoryFeatures, b: StoryFeatures): boolean {
  return a.language !== null && b.language !== null && a.language !== b.language;
}

/** Whether the `shared` words of `words` that are also in `other` stand next to each other in `words`. */
function isOnePhrase(words: readonly string[], other: readonly string[], shared: number): boolean {
  let first = -1;
  let last = -1;
  for (let i = 0; i < words.length; i++)
    if (other.includes(words[i] as string)) {
      if (first < 0) first = i;
      last = i;
    }
  return last - first + 1 === shared;
}

/** About as many words (an updated copy may gain a paragraph) and mostly the same names. */
function sameText(a: StoryFeatures, b: StoryFeatures): boolean {
  const longer = Math.max(a.wordCount, b.wordCount);
  if (Math.min(a.wordCount, b.wordCount) < longer * MIN_COPY_LENGTH_RATIO) return false;
  const sharedNames = sharedNameCount(a, b);
  const names = nameCount(a, b, sharedNames);
  return names === 0 || sharedNames / names >= 0.5;
}

/** At least `min` names (people, organisations, places) in common, and that share of all the two articles name. */
function sharesCast(a: StoryFeatures, b: StoryFeatures, min: number, share: number): boolean {
  const shared = sharedNameCount(a, b);
  return shared >= min && shared / nameCount(a, b, shared) >= share;
}

function sharedNameCount(a: StoryFeatures, b: StoryFeatures): number {
  return intersectionSize(a.entities, b.entities) + intersectionSize(a.places, b.places);
}

/** The distinct names of the two articles, `shared` of which they have in common. */
function nameCount(a: StoryFeatures, b: StoryFeatures, shared: number): number {
  return a.entities.length + a.places.length + b.entities.length + b.places.length - shared;
}

/** A shared headline word (not a number) that is part of a name in either article. */
function sharesNamedWord(a: StoryFeatures, b: StoryFeatures): boolean {
  for (const w of a.titleWords)
    if (!isNumber(w) && b.titleWords.includes(w) && (a.nameWords.includes(w) || b.nameWords.includes(w))) return true;
  return false;
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
