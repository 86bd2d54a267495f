import type { ArticleDetail } from "../article.js";
import { parseStamp } from "../../shared/timestamps.js";

// What story clustering compares about an article: its headline's content
// words, the people and organisations it names, the places, and when it
// was published. Derived once per article, at ingest.

export interface StoryFeatures {
  id: string;
  /** Publisher domain. */
  source: string | null;
  /** The article's language (ISO 639-3, `eng` for GDELT's English feed); null when unknown. */
  language: string | null;
  /** Publication time, ms; never later than the collection time. */
  timeMs: number;
  /** Words in the page's text (GKG's count), 0 when unknown: two pages of one outlet under one headline carry about as many. */
  wordCount: number;
  /** Distinct content words of the normalised headline. */
  titleWords: string[];
  /** Distinct persons and organisations, lower-cased. */
  entities: string[];
  /** Distinct persons, lower-cased: the people an event is about, and the bylines of a wire story. */
  persons: string[];
  /** The persons the headline names: one of its words is a word of their name ("biden" of "joe biden"). */
  headlinePersons: string[];
  /** Distinct place names (cities and regions), lower-cased. */
  places: string[];
  /**
   * The headline words that are words of those names ("baltimore" of "baltimore police department"): a shared
   * headline word among them is a shared name. Only headline words are kept, as only they are ever looked up.
   */
  nameWords: string[];
}

/** Separators before an outlet's name at the end of a headline: "Title - Outlet", "Title | Section | Outlet". */
const TRAILING_SEGMENT = /\s+[-–—|:]\s+([^-–—|]*)$/u;
/** The same at the start: "Welcome To IANS Live - NATION - Title". */
const LEADING_SEGMENT = /^([^-–—|:]*?)\s*[-–—|:]\s+/u;
const OUTLET_WORDS = new Set([
  "news",
  "times",
  "post",
  "daily",
  "tribune",
  "herald",
  "journal",
  "radio",
  "tv",
  "online",
  "com",
  "net",
  "org",
  "co",
  "uk",
  "the",
  "media",
  "press",
  "today",
  "gazette",
  "star",
  "sun",
  "mail",
  "express",
  "world",
  "national",
  "local",
  "sport",
  "sports",
  "opinion",
  "live",
  "welcome",
  "to",
  "nation",
  "topstory",
  "top",
  "story",
  "stories",
  "latest",
  "breaking",
]);

/** "two dead" and "2 dead" are the same words. */
const NUMBER_WORDS = new Map(
  ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"].map((w, i) => [w, String(i)]),
);

const STOPWORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "just may me more most my new no not now of on one or our out over says said she so than that the their them then there " +
    "they this to up us was we were what when where which who why will with would you your after before about amid against say"
  ).split(" "),
);

export function storyFeatures(article: ArticleDetail): StoryFeatures {
  const collected = parseStamp(article.collected_at ?? article.id.slice(0, 14)) ?? 0;
  const published = article.published_at ? parseStamp(article.published_at) : undefined;
  const titleWords = headlineOrSlugWords(article.title, article.url, article.source);
  // One pass over all the names: the words are the same as name by name, at a fraction of the cost.
  const nameWords = new Set(
    contentWords([...article.persons, ...article.organizations, ...article.cities, ...article.regions].join(" ")),
  );
  const headlineNameWords = titleWords.filter((w) => nameWords.has(w));
  const persons = distinctLower(article.persons);
  return {
    id: article.id,
    source: article.source,
    language: article.language,
    timeMs: published === undefined ? collected : Math.min(published, collected),
    wordCount: article.word_count ?? 0,
    titleWords,
    entities: distinctLower([...article.persons, ...article.organizations]),
    persons,
    // Only a headline that names someone needs each name's words: most do not.
    headlinePersons:
      headlineNameWords.length === 0 ? [] : persons.filter((p) => contentWords(p).some((w) => headlineNameWords.includes(w))),
    places: distinctLower([...article.cities, ...article.regions]),
    nameWords: headlineNameWords,
  };
}

/**
 * The headline's words; the URL's slug words instead when the page title is not the headline
 * (a paywall's "Subscribe to ...", a bare "The Stockton Record"): then the two share no word.
 */
export function headlineOrSlugWords(title: string | null, url: string | null, source: string | null): string[] {
  const words = title ? headlineWords(title, source) : [];
  const slug = url ? slugWords(url) : [];
  if (slug.length < MIN_SLUG_WORDS) return words;
  const inSlug = new Set(slug);
  return words.some((w) => inSlug.has(w)) ? words : slug;
}

/** Fewer words than this in a URL segment are an id or a section ("/news/world/"), not a slug. */
const MIN_SLUG_WORDS = 4;

/** Words of the URL's slug: the path segment or query value with the most words ("/2023/07/02/mass-shooting-in-baltimore/"). */
export function slugWords(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    // Not a URL: no slug.
    if (error instanceof TypeError) return [];
    throw error;
  }
  const segments = [...parsed.pathname.split("/"), ...parsed.searchParams.values()].map((segment) =>
    safeDecode(segment)
      .replace(/\.[a-z0-9]{2,5}$/i, "")
      .split(/[-_+\s]+/)
      // Ids and hashes mixed into a slug ("-3600971", "df365422") are not words.
      .filter((w) => /^\p{L}+$/u.test(w)),
  );
  const best = segments.reduce((a, b) => (b.length > a.length ? b : a), []);
  return best.length >= MIN_SLUG_WORDS ? contentWords(best.join(" ")) : [];
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    // A stray '%': the segment as written.
    if (error instanceof URIError) return segment;
    throw error;
  }
}

/** Content words of a headline, without the outlet's name the headline may begin or end with. */
export function headlineWords(title: string, source: string | null): string[] {
  let text = fold(title);
  // The domain's first label names the outlet: hollywoodlife.com, the-star.co.ke, dw.com.
  const outlet = source ? fold(source.split(".")[0] ?? "").replace(/[^a-z0-9]/g, "") : "";
  for (let i = 0; i < 3; i++) {
    const m = TRAILING_SEGMENT.exec(text);
    if (!m || !isOutletSegment(m[1] ?? "", outlet)) break;
    text = text.slice(0, m.index);
  }
  for (let i = 0; i < 3; i++) {
    const m = LEADING_SEGMENT.exec(text);
    if (!m || !isOutletSegment(m[1] ?? "", outlet)) break;
    text = text.slice(m[0].length);
  }
  // A short headline that names its own outlet ("Subscribe to the Gold Coast Bulletin") is a page of the outlet, not news.
  if (outlet.length >= 4 && text.split(/\s+/).length <= 6 && text.replace(/[^a-z0-9]/g, "").includes(outlet)) return [];
  return contentWords(text);
}

function contentWords(text: string): string[] {
  const words = fold(text)
    .split(/[^\p{L}\p{M}\p{N}]+/u)
    .map((w) => NUMBER_WORDS.get(w) ?? w)
    .filter((w) => (w.length > 1 || /\d/.test(w)) && !STOPWORDS.has(w))
    .map(singular);
  return [...new Set(words)];
}

/** "splits" and "split" are one word: a light plural stem, nothing cleverer. */
function singular(word: string): string {
  return word.length > 3 && word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") ? word.slice(0, -1) : word;
}

/** A trailing segment is the outlet when it names the source's domain, or is made only of outlet words and dates. */
function isOutletSegment(segment: string, outlet: string): boolean {
  const words = segment.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0 || words.length > 6) return false;
  const squeezed = words.join("");
  if (squeezed === outlet) return true;
  if (outlet.length >= 3 && squeezed.length >= 3 && (outlet.includes(squeezed) || squeezed.includes(outlet))) return true;
  // "Press Trust of India" at ptinews.com.
  const initials = words
    .filter((w) => !STOPWORDS.has(w))
    .map((w) => w[0])
    .join("");
  if (initials.length >= 3 && outlet.startsWith(initials)) return true;
  return words.every((w) => OUTLET_WORDS.has(w) || /^\d+$/.test(w));
}

function fold(text: string): string {
  // Only Latin accents go; the vowel signs of Devanagari and other scripts are letters' parts.
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
    .toLowerCase()
    .trim();
}

function distinctLower(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.toLowerCase()))];
}
