import { eld } from "eld/extrasmall";

// The language of a record GDELT gives no translation info for. GDELT's
// English stream carries pages its crawler took for English, Hindi headlines
// of an Indian wire service among them; a record with no `srclc:` is English
// unless its headline is clearly not: written mostly in another script, or a
// Latin-script headline long enough to judge whose language outscores
// English by a clear margin. Detection is ELD's (n-grams of 60 languages, its
// smallest database); the rule and its accuracy on the bundled sample are in
// /docs/completeness.md ("Article fields we derive").

/** Words (two letters or more) a Latin-script headline needs before its language is judged: shorter ones are mostly names. */
const MIN_LATIN_WORDS = 5;
/** How far the detected language's score must exceed English's for a Latin-script headline. */
const MIN_MARGIN_OVER_ENGLISH = 0.1;

/**
 * English function words: a Latin-script headline using two of them is taken
 * for English without asking the detector (most headlines: it saves most of
 * the detection's cost at ingest, and changes no label on the sample).
 */
const ENGLISH_WORDS = new Set(
  "the of to in and for on with at by from after as is are was be has have will over into about than this that its".split(" "),
);
const LETTER = /\p{L}/gu;
const LATIN_LETTER = /\p{Script=Latin}/gu;
const WORD = /\p{L}{2,}/gu;

/** ELD's ISO 639-1 codes as the ISO 639-3 codes GDELT's `srclc:` uses (macrolanguages: `zho`, `msa`, `nor`, `fas`, `ara`). */
const ISO_639_3: Readonly<Record<string, string>> = {
  am: "amh",
  ar: "ara",
  az: "aze",
  be: "bel",
  bg: "bul",
  bn: "ben",
  ca: "cat",
  cs: "ces",
  da: "dan",
  de: "deu",
  el: "ell",
  en: "eng",
  es: "spa",
  et: "est",
  eu: "eus",
  fa: "fas",
  fi: "fin",
  fr: "fra",
  gu: "guj",
  he: "heb",
  hi: "hin",
  hr: "hrv",
  hu: "hun",
  hy: "hye",
  is: "isl",
  it: "ita",
  ja: "jpn",
  ka: "kat",
  kn: "kan",
  ko: "kor",
  ku: "kur",
  lo: "lao",
  lt: "lit",
  lv: "lav",
  ml: "mal",
  mr: "mar",
  ms: "msa",
  nl: "nld",
  no: "nor",
  or: "ori",
  pa: "pan",
  pl: "pol",
  pt: "por",
  ro: "ron",
  ru: "rus",
  sk: "slk",
  sl: "slv",
  sq: "sqi",
  sr: "srp",
  sv: "swe",
  ta: "tam",
  te: "tel",
  th: "tha",
  tl: "tgl",
  tr: "tur",
  uk: "ukr",
  ur: "urd",
  vi: "vie",
  yo: "yor",
  zh: "zho",
};

/** ISO 639-3 language of a record without translation info: `eng` unless its title is clearly in another language. */
export function untranslatedLanguage(title: string | null): string {
  if (title === null) return "eng";
  const letters = count(title, LETTER);
  if (letters === 0) return "eng";
  // Mostly another script: no English headline is written so.
  const otherScript = letters - count(title, LATIN_LETTER) > letters / 2;
  if (!otherScript && (count(title, WORD) < MIN_LATIN_WORDS || englishWords(title) >= 2)) return "eng";
  const detected = eld.detect(title);
  const language = ISO_639_3[detected.language];
  if (language === undefined || language === "eng") return "eng";
  if (otherScript) return language;
  const scores = detected.getScores();
  const margin = (scores[detected.language] ?? 0) - (scores.en ?? 0);
  return detected.isReliable() && margin >= MIN_MARGIN_OVER_ENGLISH ? language : "eng";
}

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/** How many distinct English function words the title uses. */
function englishWords(title: string): number {
  const found = new Set<string>();
  for (const word of title.toLowerCase().match(WORD) ?? []) if (ENGLISH_WORDS.has(word)) found.add(word);
  return found.size;
}
