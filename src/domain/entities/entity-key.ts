import type { FilterField } from "../filter-fields.js";

// Entity keys, version er-v1 (spec "GET /entities", rule 1): the one function
// that turns a spelling into the key its entity id is made of. /entities,
// `entity_id` filters, the graph and watches all key values through here, so
// an id means the same spellings everywhere. Changing anything below changes
// ids: that is a new ENTITY_RESOLUTION_VERSION, never an edit of this one.

export const ENTITY_RESOLUTION_VERSION = "er-v1";

/** The nine entity types (spec "Entity group") and the filter field whose values each groups. */
export const ENTITY_TYPE_FIELDS = {
  organization: "organization",
  person: "person",
  location: "location",
  city: "city",
  region: "region",
  name: "name",
  topic: "topic",
  author: "author",
  source: "source",
} as const satisfies Record<string, FilterField>;

export type EntityType = keyof typeof ENTITY_TYPE_FIELDS;

export const ENTITY_TYPES = Object.keys(ENTITY_TYPE_FIELDS) as EntityType[];

export function isEntityType(value: string): value is EntityType {
  return Object.hasOwn(ENTITY_TYPE_FIELDS, value);
}

/**
 * Trailing legal forms an organization's key loses, as whole words, repeatedly
 * ("Samsung Electronics Co., Ltd." is `samsung electronics`), never its last word.
 */
export const CORPORATE_SUFFIXES: readonly string[] = [
  "inc",
  "incorporated",
  "corp",
  "corporation",
  "co",
  "cos",
  "company",
  "ltd",
  "limited",
  "llc",
  "llp",
  "lp",
  "plc",
  "sa",
  "ag",
  "gmbh",
  "nv",
  "bv",
  "spa",
  "srl",
  "sarl",
  "sas",
  "ab",
  "asa",
  "oy",
  "oyj",
  "kk",
  "pty",
  "pte",
  "bhd",
  "sdn",
  "holdings",
];

/**
 * Leading titles a person's key loses, as whole words, repeatedly ("Vice
 * President Kamala Harris" is `kamala harris`), never the last word.
 */
export const HONORIFICS: readonly string[] = [
  "mr",
  "mrs",
  "ms",
  "miss",
  "mx",
  "dr",
  "prof",
  "professor",
  "sir",
  "dame",
  "lord",
  "lady",
  "president",
  "vice",
  "prime",
  "minister",
  "chancellor",
  "senator",
  "sen",
  "rep",
  "representative",
  "congressman",
  "congresswoman",
  "governor",
  "gov",
  "mayor",
  "judge",
  "justice",
  "king",
  "queen",
  "prince",
  "princess",
  "pope",
  "rev",
  "reverend",
  "father",
  "sheikh",
  "general",
  "gen",
  "col",
  "colonel",
  "capt",
  "captain",
  "lt",
  "sgt",
  "ambassador",
  "secretary",
];

/** Words an acronym skips ("Federal Bureau of Investigation" is `fbi`). */
export const ACRONYM_SKIPS: ReadonlySet<string> = new Set([
  "of",
  "the",
  "and",
  "for",
  "on",
  "in",
  "at",
  "to",
  "de",
  "la",
  "du",
  "des",
  "der",
]);

const SUFFIXES: ReadonlySet<string> = new Set(CORPORATE_SUFFIXES);
const TITLES: ReadonlySet<string> = new Set(HONORIFICS);

/** Latin letters that Unicode decomposition does not split into a base letter and a mark. */
const LETTERS: Readonly<Record<string, string>> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  þ: "th",
  ı: "i",
  ħ: "h",
};

/**
 * The er-v1 key of a spelling: ASCII-folded (accents dropped; letters of
 * other scripts kept), lower-cased, apostrophes and periods removed so
 * `U.S.` and `O'Brien` stay one word, every other run of punctuation or
 * whitespace one space, a leading `the` dropped; then organizations lose
 * trailing CORPORATE_SUFFIXES and people leading HONORIFICS. Empty when
 * nothing is left.
 */
export function entityKey(type: EntityType, value: string): string {
  const folded = value
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ßæœøđðłþıħ]/g, (c) => LETTERS[c] ?? c)
    .replace(/['’ʼ`.]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  let words = folded === "" ? [] : folded.split(" ");
  if (words.length > 1 && words[0] === "the") words = words.slice(1);
  if (type === "organization") {
    while (words.length > 1 && SUFFIXES.has(words[words.length - 1] as string)) words = words.slice(0, -1);
  } else if (type === "person") {
    while (words.length > 1 && TITLES.has(words[0] as string)) words = words.slice(1);
  }
  return words.join(" ");
}

/** An entity id: `<type>:<key>`. */
export function entityIdOf(type: EntityType, key: string): string {
  return `${type}:${key}`;
}

export interface EntityRef {
  type: EntityType;
  key: string;
  /** `<type>:<key>`, the key as er-v1 gives it. */
  id: string;
}

/**
 * An entity id as a caller wrote it: a published type, a colon, a name. The
 * name is keyed again, so `person:Joe Biden` is `person:joe biden`; undefined
 * when the type is not one of the nine or the name keys to nothing.
 */
export function parseEntityId(text: string): EntityRef | undefined {
  const colon = text.indexOf(":");
  if (colon < 0) return undefined;
  const type = text.slice(0, colon).trim().toLowerCase();
  if (!isEntityType(type)) return undefined;
  const key = entityKey(type, text.slice(colon + 1));
  return key === "" ? undefined : { type, key, id: entityIdOf(type, key) };
}

/** How a spelling's key relates to the name asked for (spec "Entity group"). */
export type AliasMatch = "exact" | "prefix" | "acronym";

export const MATCH_CONFIDENCE: Readonly<Record<AliasMatch, number>> = { exact: 1.0, prefix: 0.8, acronym: 0.6 };

/**
 * `exact`: the same key. `prefix`: the name's words are whole words of the
 * key, in order and together, so the match starts and ends on a word boundary
 * (`biden` in `joe biden`, `joe` in `joe biden`; never `bid`). `acronym`: one
 * is a single word that the other's initials spell (`nato` and `north
 * atlantic treaty organization`). Undefined when none holds.
 */
export function aliasMatch(nameKey: string, key: string): AliasMatch | undefined {
  if (key === nameKey) return "exact";
  if (nameKey === "") return undefined;
  if (` ${key} `.includes(` ${nameKey} `)) return "prefix";
  if (!nameKey.includes(" ") && acronymsOf(key).includes(nameKey)) return "acronym";
  if (!key.includes(" ") && acronymsOf(nameKey).includes(key)) return "acronym";
  return undefined;
}

/** The acronyms a key of two words or more can stand for: its initials, and its initials without small words. */
export function acronymsOf(key: string): string[] {
  const words = key.split(" ");
  if (words.length < 2) return [];
  const all = words.map((w) => w[0]).join("");
  const content = words.filter((w) => !ACRONYM_SKIPS.has(w));
  const skipped = content.map((w) => w[0]).join("");
  return skipped === all || content.length < 2 ? [all] : [all, skipped];
}

/**
 * The keys a key is also found under when read from each of its later words
 * (`joe biden` also under `biden`): with the key itself, a name's `exact` and
 * `prefix` matches are the keys found under the name or under the name and a space.
 */
export function wordStarts(key: string): string[] {
  const starts: string[] = [];
  for (let at = key.indexOf(" "); at >= 0; at = key.indexOf(" ", at + 1)) starts.push(key.slice(at + 1));
  return starts;
}
