import type { FilterField } from "../../domain/filter-fields.js";
import { SIGNAL_NAMES, SIGNALS_V1 } from "../../domain/vocabularies/signals-v1.js";
import type { IndexNames } from "./index-names.js";

// The layout of a monthly article index, as one index template: explicit
// mappings with `dynamic: strict` (a document carrying a field not declared
// here is refused, never guessed at), so `_source` is the article exactly as
// written plus the `indexed` object of what only the index needs.
//
// - Filter fields are keywords with the `folded` normalizer (trim, then lower
//   case), so an exact filter is case-insensitive as the spec asks; a facet
//   counts the folded values and names each by a spelling an article carries.
// - Keyword ranking reads `title` and `indexed.entities` (persons,
//   organizations and other names once each), analysed as the embedded index
//   analyses them: split on anything but letters and digits, lower-cased,
//   accents folded.
// - `indexed.stamp` is published_at (collected_at when absent): the window,
//   and with `id` the newest-first order the index is sorted by on disk.
// - The signal intensities are numbers; `indexed.signals` the names carried;
//   `indexed.places` the mentioned cities as geo points; `indexed.amounts`
//   each amount as one term of object and number (amount-keys.ts), so every
//   bound of an amount filter holds on one amount without nested documents.
// - `indexed.vector` is a 384-dimension knn_vector on the Lucene HNSW engine.
//   Every knn_vector must name `method.engine: lucene` (assertLuceneVectors):
//   the default engine (FAISS) needs a native library a node may lack, and
//   without it the first vector indexed kills the node.

/** Bump on any change of the mappings or analysis below. */
export const ARTICLE_LAYOUT_VERSION = 2;

export const VECTOR_DIMENSIONS = 384;

/** Where each filter field's values are in a document. */
export const FILTER_PATHS: Record<FilterField, string> = {
  source: "source",
  source_type: "source_type",
  publisher_country: "publisher_country",
  language: "language",
  story_id: "story_id",
  topic: "topics",
  organization: "organizations",
  person: "persons",
  name: "names",
  country: "countries",
  author: "authors",
  location: "locations",
  city: "cities",
  region: "regions",
  location_id: "location_details.location_id",
  mentioned_date: "mentioned_dates",
  quote_verb: "quotes.verb",
  amount_object: "amounts.object",
  event_type: "event_types",
  signal: "indexed.signals",
};

/** Filter fields whose values can carry capitals: a facet reads a spelling from an article (facet-aggregations.ts). */
export const SPELLED_FIELDS: ReadonlySet<FilterField> = new Set<FilterField>([
  "publisher_country",
  "story_id",
  "name",
  "country",
  "author",
  "location",
  "city",
  "region",
  "location_id",
  "quote_verb",
  "amount_object",
]);

// Lucene refuses a term over 32,766 bytes; 8,191 characters is within it in any UTF-8.
const LONGEST_TERM = 8191;

const FOLDED = { type: "keyword", normalizer: "folded", ignore_above: LONGEST_TERM } as const;
/** Kept in `_source` for the article, never searched. */
const STORED = { type: "keyword", index: false, doc_values: false } as const;
const STORED_NUMBER = { type: "double", index: false, doc_values: false } as const;

const signalGroup = (group: "industries" | "business_context" | "risk_context") => ({
  properties: Object.fromEntries(
    SIGNAL_NAMES.filter((name) => SIGNALS_V1[name].class === group).map((name) => [name, { type: "double" }]),
  ),
});

const MAPPINGS = {
  dynamic: "strict",
  _meta: { layout: ARTICLE_LAYOUT_VERSION },
  properties: {
    id: { type: "keyword" },
    title: { type: "text", analyzer: "words" },
    url: STORED,
    source: FOLDED,
    source_type: FOLDED,
    publisher_country: FOLDED,
    language: FOLDED,
    published_at: STORED,
    collected_at: STORED,
    authors: FOLDED,
    countries: FOLDED,
    locations: FOLDED,
    organizations: FOLDED,
    persons: FOLDED,
    topics: FOLDED,
    image: STORED,
    tone: STORED_NUMBER,
    word_count: STORED_NUMBER,
    story_id: FOLDED,
    signals: {
      properties: {
        version: STORED,
        unit: STORED,
        industries: signalGroup("industries"),
        business_context: signalGroup("business_context"),
        risk_context: signalGroup("risk_context"),
      },
    },
    event_types: FOLDED,
    activity_density: STORED_NUMBER,
    negative_score: STORED_NUMBER,
    polarity: STORED_NUMBER,
    positive_score: STORED_NUMBER,
    self_reference_density: STORED_NUMBER,
    cities: FOLDED,
    regions: FOLDED,
    mentioned_dates: FOLDED,
    names: FOLDED,
    // Flat, not nested (one Lucene document per article); an amount filter with an object reads `indexed.amounts`.
    amounts: { properties: { number: { type: "double" }, object: FOLDED, value: STORED } },
    quotes: { properties: { text: STORED, verb: FOLDED } },
    date_mentions: { type: "object", enabled: false },
    location_details: {
      properties: {
        country: STORED,
        kind: STORED,
        latitude: STORED_NUMBER,
        location_id: FOLDED,
        longitude: STORED_NUMBER,
        name: STORED,
        region_id: STORED,
        subregion_id: STORED,
      },
    },
    amp_url: STORED,
    mobile_url: STORED,
    links: STORED,
    related_images: STORED,
    social_images: STORED,
    social_videos: STORED,
    indexed: {
      properties: {
        stamp: { type: "date", format: "yyyyMMddHHmmss" },
        entities: { type: "text", analyzer: "words" },
        spellings: { type: "keyword", ignore_above: LONGEST_TERM },
        story: { type: "keyword", ignore_above: LONGEST_TERM },
        headline: { type: "keyword", ignore_above: LONGEST_TERM },
        signals: FOLDED,
        amounts: { type: "keyword", ignore_above: LONGEST_TERM },
        places: { type: "geo_point" },
        vector: {
          type: "knn_vector",
          dimension: VECTOR_DIMENSIONS,
          method: { name: "hnsw", engine: "lucene", space_type: "cosinesimil", parameters: { m: 16, ef_construction: 100 } },
        },
        vector_model: { type: "keyword" },
      },
    },
  },
} as const;

export interface ArticleIndexOptions {
  /** Primary shards per monthly index. */
  shards: number;
  /** Copies of each shard on other nodes. */
  replicas: number;
}

/** Offsets reach 100,000 (spec section 8) and a page 100 more. */
export const MAX_RESULT_WINDOW = 100_100;

export function articleIndexSettings(options: ArticleIndexOptions): Record<string, unknown> {
  return {
    number_of_shards: options.shards,
    number_of_replicas: options.replicas,
    max_result_window: MAX_RESULT_WINDOW,
    knn: true,
    // Newest first on disk: a browse reads the first documents of each segment and stops.
    sort: { field: ["indexed.stamp", "id"], order: ["desc", "desc"] },
    analysis: {
      tokenizer: { words: { type: "pattern", pattern: "[^\\p{L}\\p{N}]+" } },
      analyzer: { words: { type: "custom", tokenizer: "words", filter: ["lowercase", "asciifolding"] } },
      normalizer: { folded: { type: "custom", filter: ["trim", "lowercase"] } },
    },
  };
}

/** The index template every monthly article index is created from, joining the read alias as it is created. */
export function articleTemplate(names: IndexNames, options: ArticleIndexOptions): Record<string, unknown> {
  const template = {
    index_patterns: [names.articlePattern],
    priority: 100,
    _meta: { layout: ARTICLE_LAYOUT_VERSION },
    template: {
      settings: { index: articleIndexSettings(options) },
      mappings: MAPPINGS,
      aliases: { [names.articles]: {} },
    },
  };
  assertLuceneVectors(template.template.mappings);
  return template;
}

/** Throws unless every knn_vector in `mappings` names the Lucene engine (see the top of this file). */
export function assertLuceneVectors(mappings: unknown, path = ""): void {
  if (typeof mappings !== "object" || mappings === null) return;
  const node = mappings as Record<string, unknown>;
  if (node.type === "knn_vector") {
    const engine = (node.method as { engine?: unknown } | undefined)?.engine;
    if (engine !== "lucene") {
      throw new Error(`knn_vector ${path || "(root)"} must set method.engine: lucene, not ${String(engine ?? "the default")}`);
    }
  }
  const properties = node.properties;
  if (typeof properties === "object" && properties !== null) {
    for (const [name, child] of Object.entries(properties)) assertLuceneVectors(child, path ? `${path}.${name}` : name);
  }
}
