import type { StoryFeatures } from "./story-features.js";

// What the story store finds candidates by: an article is indexed under its
// keys, and a new article's candidates are the clustered articles sharing at
// least MIN_SHARED_KEYS of its lookup keys with them. Every pair sameStory can
// accept shares that many, so the lookup is exhaustive (clusters do not depend
// on arrival order).
//
// The keys are the headline's words, the persons the headline names (a pair
// sharing one headline word is tested only when both headlines name one
// person), and for an article in a known language all its persons: reports of
// one event in two languages share no headline word, only the people they
// name. Persons are keyed by side, English or translated, so that two English
// articles, most pairs by far, never meet through a name (it would multiply
// the candidates); only pairs that may be in two languages do. Two translated
// articles in one language meet through names too, and the test then treats
// them as one language.

/** Every pair the same-story test accepts shares at least this many keys. */
export const MIN_SHARED_KEYS = 2;

/** GDELT's English feed; every other language reaches the index through its translingual feed. */
const ENGLISH = "eng";

// A person's name is lower-cased text that may hold spaces; a headline word holds only letters, marks and digits,
// so these prefixes keep the two kinds of key apart.
const HEADLINE_PERSON = "hp:";
const ENGLISH_PERSON = "en:";
const TRANSLATED_PERSON = "tr:";

/** The keys the store indexes an article under. */
export function indexKeys(features: StoryFeatures): string[] {
  const keys = headlineKeys(features);
  if (features.language === null) return keys;
  const prefix = features.language === ENGLISH ? ENGLISH_PERSON : TRANSLATED_PERSON;
  for (const p of features.persons) keys.push(prefix + p);
  return keys;
}

/** The keys a new article's candidates are looked up by: its headline's, and its persons as the other side indexes them. */
export function lookupKeys(features: StoryFeatures): string[] {
  const keys = headlineKeys(features);
  if (features.language === null) return keys;
  for (const p of features.persons) keys.push(TRANSLATED_PERSON + p);
  if (features.language !== ENGLISH) for (const p of features.persons) keys.push(ENGLISH_PERSON + p);
  return keys;
}

function headlineKeys(features: StoryFeatures): string[] {
  const keys = [...features.titleWords];
  for (const p of features.headlinePersons) keys.push(HEADLINE_PERSON + p);
  return keys;
}
