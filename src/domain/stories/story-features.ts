import type { ArticleDetail } from "../article.js";
import { parseStamp } from "../../shared/timestamps.js";

// What story clustering compares about an article: its headline's content
// words, the people and organisations it names, the places, and when it
// was published. Derived once per article, at ingest.

export interface StoryFeatures {
  id: string;
  /** Publisher domain. */
  source: string | null;
  /** Publication time, ms; never later than the collection time. */
  timeMs: number;
  /** Distinct content words of the normalised headline. */
  titleWords: string[];
  /** Distinct persons and organisations, lower-cased. */
  entities: string[];
  /** Distinct place names (cities and regions), lower-cased. */
  places: string[];
}

/** Separators before an outlet's name at the end of a headline: "Title - Outlet", "Title | Section | Outlet". */
const TRAILING_SEGMENT = /\s+[-–—|:]\s+([^-–—|]*)$/u;
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
  return {
    id: article.id,
    source: article.source,
    timeMs: published === undefined ? collected : Math.min(published, collected),
    titleWords: article.title ? headlineWords(article.title, article.source) : [],
    entities: distinctLower([...article.persons, ...article.organizations]),
    places: distinctLower([...article.cities, ...article.regions]),
  };
}

/** Content words of a headline, without the outlet's name the headline may end with. */
export function headlineWords(title: string, source: string | null): string[] {
  let text = fold(title);
  // The domain's first label names the outlet: hollywoodlife.com, the-star.co.ke, dw.com.
  const outlet = source ? fold(source.split(".")[0] ?? "").replace(/[^a-z0-9]/g, "") : "";
  for (let i = 0; i < 3; i++) {
    const m = TRAILING_SEGMENT.exec(text);
    if (!m || !isOutletSegment(m[1] ?? "", outlet)) break;
    text = text.slice(0, m.index);
  }
  // A short headline that names its own outlet ("Subscribe to the Gold Coast Bulletin") is a page of the outlet, not news.
  if (outlet.length >= 4 && text.split(/\s+/).length <= 6 && text.replace(/[^a-z0-9]/g, "").includes(outlet)) return [];
  const words = text
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
