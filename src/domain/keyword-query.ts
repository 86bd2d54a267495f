// The keyword query language of `q`, parsed once at validation time into an
// engine-neutral form that each index adapter compiles to its own syntax.
//
//   words            all must match (AND)
//   "a phrase"       the words in this order
//   a OR b           either
//   -word, -"phrase" must not match
//
// Matching is case- and accent-insensitive; punctuation separates words, so
// `U.S.` is the phrase "u s".

/** A run of words that must appear in order (one word is a phrase of one). */
export type Phrase = string[];

/** Any one of its phrases matches. */
export interface Clause {
  anyOf: Phrase[];
}

export interface KeywordQuery {
  must: Clause[];
  mustNot: Clause[];
}

const WORD = /[\p{L}\p{N}]+/gu;
const ITEM = /(-?)(?:"([^"]*)"?|(\S+))/g;

export function wordsOf(text: string): string[] {
  return (text.normalize("NFKC").toLowerCase().match(WORD) ?? []).slice();
}

/** Parses `q`; undefined when it holds no word that could match anything. */
export function parseKeywordQuery(q: string): KeywordQuery | undefined {
  const must: Clause[] = [];
  const mustNot: Clause[] = [];
  let joinNext = false;
  for (const m of q.matchAll(ITEM)) {
    const negated = m[1] === "-";
    const raw = m[2] ?? m[3] ?? "";
    if (m[2] === undefined && raw === "OR") {
      joinNext = must.length > 0;
      continue;
    }
    const phrase = wordsOf(raw);
    if (phrase.length === 0) continue;
    if (negated) {
      mustNot.push({ anyOf: [phrase] });
      joinNext = false;
      continue;
    }
    const last = must[must.length - 1];
    if (joinNext && last) last.anyOf.push(phrase);
    else must.push({ anyOf: [phrase] });
    joinNext = false;
  }
  return must.length > 0 ? { must, mustNot } : undefined;
}
