// The Article and Article-detail shapes of spec section 2, in the spec's field names.
// Search hits are `Article` (plus `score` on ranked queries); GET /doc/{id} is `ArticleDetail`.

import type { EventType } from "./vocabularies/events-v1.js";
import type { Signals } from "./vocabularies/signals-v1.js";

export const SOURCE_TYPES = [
  "web",
  "citation",
  "academic_archive",
  "defense_archive",
  "journal_archive",
  "non_textual",
  "other",
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export interface Article {
  id: string;
  title: string | null;
  url: string | null;
  source: string | null;
  source_type: SourceType | null;
  publisher_country: string | null;
  language: string | null;
  /** 14-digit UTC. */
  published_at: string | null;
  /** 14-digit UTC; when the index saw the article. */
  collected_at: string | null;
  authors: string[];
  countries: string[];
  locations: string[];
  organizations: string[];
  persons: string[];
  topics: string[];
  image: string | null;
  tone: number | null;
  word_count: number | null;
  story_id: string | null;
  /** signals-v1; absent when the article predates the vocabulary (or has no word count). */
  signals?: Signals;
  /** events-v1 classes, [] when none; absent, like `signals`, on an article stored before the vocabulary. */
  event_types?: EventType[];
}

export type LocationKind = "country" | "region" | "city";

export interface LocationDetail {
  country: string | null;
  kind: LocationKind;
  latitude: number | null;
  /** GDELT feature id: numeric GeoNames/GNS id for cities, ADM1 or country code otherwise. */
  location_id: string | null;
  longitude: number | null;
  name: string;
  /** ADM1 code (FIPS country + 2 characters), e.g. `USNY`. */
  region_id: string | null;
  /** ADM2 code when GDELT resolved one. */
  subregion_id: string | null;
}

export interface Amount {
  /** Null when the amount as written does not parse as a number. */
  number: number | null;
  object: string;
  /** The amount as written. */
  value: string;
}

export interface Quote {
  text: string;
  verb: string;
}

export type DatePrecision = "year" | "month" | "day" | "month_day";

export interface DateMention {
  /** `YYYY`, `YYYY-MM`, `YYYY-MM-DD` or `--MM-DD`. */
  date: string;
  precision: DatePrecision;
}

export interface ArticleDetail extends Article {
  activity_density: number | null;
  negative_score: number | null;
  polarity: number | null;
  positive_score: number | null;
  self_reference_density: number | null;
  cities: string[];
  regions: string[];
  mentioned_dates: string[];
  names: string[];
  amounts: Amount[];
  quotes: Quote[];
  date_mentions: DateMention[];
  location_details: LocationDetail[];
  amp_url: string | null;
  mobile_url: string | null;
  links: string[];
  related_images: string[];
  social_images: string[];
  social_videos: string[];
}

/** Compact article (view=compact, story listings): exactly these fields, plus `score` when ranked. */
export const COMPACT_ARTICLE_FIELDS = ["id", "title", "url", "source", "published_at", "language", "story_id", "score"] as const;

/** The fields of `Article`, in the order responses carry them. */
export const ARTICLE_FIELDS = [
  "id",
  "title",
  "url",
  "source",
  "source_type",
  "publisher_country",
  "language",
  "published_at",
  "collected_at",
  "authors",
  "countries",
  "locations",
  "organizations",
  "persons",
  "topics",
  "image",
  "tone",
  "word_count",
  "story_id",
  "signals",
  "event_types",
] as const satisfies readonly (keyof Article)[];

export function toArticle(detail: ArticleDetail): Article {
  const out: Record<string, unknown> = {};
  for (const field of ARTICLE_FIELDS) if (detail[field] !== undefined) out[field] = detail[field];
  return out as unknown as Article;
}

/** The compact article (view=compact, story listings): the compact fields, with `score` only when ranked. */
export type CompactArticle = Pick<Article, Exclude<(typeof COMPACT_ARTICLE_FIELDS)[number], "score">> & { score?: number };

export function toCompactArticle(article: Article, score?: number): CompactArticle {
  const out: Record<string, unknown> = {};
  for (const field of COMPACT_ARTICLE_FIELDS) if (field !== "score") out[field] = article[field];
  if (score !== undefined) out.score = score;
  return out as unknown as CompactArticle;
}
