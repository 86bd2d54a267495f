import { Type, type Static, type TLiteral, type TObject, type TProperties, type TUnion } from "@sinclair/typebox";
import { INTERVALS } from "../domain/aggregate/buckets.js";
import { SOURCE_TYPES } from "../domain/article.js";
import { ENTITY_TYPES } from "../domain/entities/entity-key.js";
import { FILTER_FIELD_NAMES, type FilterField } from "../domain/filter-fields.js";
import type { RankingMode } from "../domain/pricing.js";
import { EVENT_TYPES } from "../domain/vocabularies/events-v1.js";
import { SIGNAL_NAMES } from "../domain/vocabularies/signals-v1.js";
import { EVENT_KINDS } from "../domain/watches/watch.js";
import type { Same } from "../shared/same-type.js";

// Every query parameter and JSON body field, declared once. Operations pick
// from here; REST validation, the unknown_parameter hint, OpenAPI and MCP tool
// schemas all derive from these declarations. `x-expected` is the human phrase used in
// invalid_parameter details where the constraint alone does not say it.

function oneOf<const T extends readonly string[]>(
  values: T,
  options: { description: string; default?: T[number] },
): TUnion<TLiteral<T[number]>[]> {
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  );
}

export const TIME_BOUND_PATTERN = "^(\\d{4}-\\d{2}-\\d{2}|\\d{14})$";

/** An exact-match filter on an extracted value. */
function exact(description: string, maxLength = 500) {
  return Type.String({ minLength: 1, maxLength, description: `${description} Exact, case-insensitive.` });
}

export const Params = {
  q: Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      'Keyword query. Words are ANDed; "quoted phrase", a OR b, and -word are understood. Omitted means a newest-first browse.',
  }),
  mode: oneOf(["keyword", "semantic", "hybrid"] as const, {
    description:
      "Ranking mode, with `q`. `keyword`: BM25 over titles and entity names. `semantic`: meaning (sentence embeddings; finds paraphrases and other languages) over a bounded candidate set. `hybrid`: both rankings fused. Semantic and hybrid totals are `approximate`.",
    default: "keyword",
  }),
  source: Type.String({
    minLength: 1,
    maxLength: 253,
    description: "Publisher domain (`bbc.co.uk`); a scheme or leading `www.` is ignored. Case-insensitive.",
  }),
  source_type: oneOf(SOURCE_TYPES, { description: "Kind of source." }),
  publisher_country: Type.String({
    pattern: "^[A-Za-z]{2}$",
    description: "Publisher's country, two-character FIPS 10-4 identifier (e.g. `US`, `UK`, `GM`).",
    "x-expected": "a two-character country identifier such as US",
  }),
  language: Type.String({
    pattern: "^[A-Za-z]{3}$",
    description: "ISO 639-3 language, three letters (`eng`, `fra`). `en` is wrong; use three letters.",
    "x-expected": "an ISO 639-3 code of three letters such as eng (not en)",
  }),
  story_id: exact("Story (cluster) id: expands a story into its articles. An unclustered article's story id is its own id.", 200),
  topic: exact("Canonical topic identifier as returned in articles' `topics` (a GDELT theme code, e.g. `tax_fncact`)."),
  organization: exact("Extracted organization, as in `organizations`."),
  person: exact("Extracted person, as in `persons`."),
  name: exact("Extracted proper name (GDELT AllNames), as in the article detail's `names`."),
  country: Type.String({
    pattern: "^[A-Za-z]{2}$",
    description: "Mentioned country, two-character FIPS 10-4 identifier (as in `countries`).",
    "x-expected": "a two-character country identifier such as US",
  }),
  author: exact("Author as in `authors`."),
  location: exact("Full mentioned location string as extracted (as in `locations`), e.g. `Baltimore, Maryland, United States`."),
  city: exact("Mentioned city, the full location string (article detail `cities`)."),
  region: exact("Mentioned region, the full location string (article detail `regions`)."),
  location_id: exact("Canonical location identifier from `location_details[].location_id`.", 64),
  mentioned_date: Type.String({
    pattern: "^(\\d{4}(-\\d{2}(-\\d{2})?)?|--\\d{2}-\\d{2})$",
    description:
      "A date mentioned in the text (not the publication date), `YYYY-MM-DD`; also `YYYY-MM`, `YYYY` or `--MM-DD` (a day without a year), the forms article detail `mentioned_dates` and the `mentioned_date` facet show.",
    "x-expected": "a date YYYY-MM-DD (or YYYY-MM, YYYY, --MM-DD)",
  }),
  quote_verb: exact("Verb introducing a quotation (article detail `quotes[].verb`).", 200),
  amount_object: exact("Object an amount describes (article detail `amounts[].object`)."),
  // Derived fields (signals-v1, events-v1; /docs/signals-and-events.md).
  event_type: oneOf(EVENT_TYPES, {
    description:
      "Event class (events-v1) the article carries. An index built before the vocabulary answers `coverage: field_unavailable`.",
  }),
  signal: Type.Union(
    SIGNAL_NAMES.map((name) => Type.Literal(name)),
    {
      description:
        "A signal (signals-v1) the article carries (intensity above 0); with `signal_min`/`signal_max`, within those bounds. An unknown name is 400 `unknown_signal`.",
      "x-refusal": "unknown_signal",
    },
  ),
  signal_min: Type.Number({
    minimum: 0,
    description: "Inclusive lower bound of `signal`'s intensity (per 1,000 words). Needs `signal`.",
  }),
  signal_max: Type.Number({
    minimum: 0,
    description: "Inclusive upper bound of `signal`'s intensity (per 1,000 words). Needs `signal`.",
  }),
  signals: Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      "Signal clauses `name[:min[:max]]`, comma-separated, ANDed; an empty bound is unbounded (`finance:2:`, `conflict::5`). Each matches articles carrying the signal within its bounds. Over MCP an array of {name, min, max}.",
    "x-expected": "comma-separated clauses name[:min[:max]] with non-negative decimal bounds",
  }),
  signal_percentile_min: Type.Number({
    minimum: 50,
    maximum: 99.9,
    description:
      "Keep articles whose `signal` intensity is at or above this percentile (50 to 99.9) of the matching articles carrying it; the threshold used is reported as `signal_threshold`. Needs `signal`; not with `signal_min`. 1 extra credit.",
  }),
  // Geographic and amount filters: checked on the query's first candidates (spec section 4, rule 6).
  near: Type.String({
    pattern: "^\\s*-?\\d{1,3}(\\.\\d{1,12})?\\s*,\\s*-?\\d{1,3}(\\.\\d{1,12})?\\s*$",
    description:
      "`latitude,longitude` in decimal degrees: articles mentioning a city within `radius_km` of it (cities only, not regions or countries). Results carry `matched_locations`, nearest first, with `distance_km`. Needs `radius_km`; not with `bbox` or `cursor`.",
    "x-expected": "latitude,longitude in decimal degrees such as 48.8566,2.3522",
  }),
  radius_km: Type.Number({ minimum: 0.1, maximum: 2000, description: "Radius around `near`, 0.1 to 2000 km." }),
  bbox: Type.String({
    pattern: "^\\s*-?\\d{1,3}(\\.\\d{1,12})?(\\s*,\\s*-?\\d{1,3}(\\.\\d{1,12})?){3}\\s*$",
    description:
      "`south,west,north,east` in decimal degrees: articles mentioning a city inside the box. West greater than east crosses the antimeridian. Any size, up to the whole globe: the geohash cell precision is picked per request so the box needs at most 256 cells. Not with `near` or `cursor`.",
    "x-expected": "south,west,north,east in decimal degrees such as 50.75,3.35,53.55,7.23",
  }),
  amount_min: Type.Number({
    minimum: 0,
    description:
      "One amount mentioned in the article is at least this (with `amount_max`, one amount within both; with `amount_object`, an amount of that object). An amount that does not parse never matches. Not with `cursor`.",
  }),
  amount_max: Type.Number({ minimum: 0, description: "One amount mentioned in the article is at most this. See `amount_min`." }),
  from: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description:
      "Earliest `published_at`, `YYYY-MM-DD` or 14-digit UTC. Moved forward to the plan's reach when older (`from_clamped`), never refused.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  to: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description: "Latest `published_at`, `YYYY-MM-DD` (the whole day) or 14-digit UTC.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  offset: Type.Integer({
    minimum: 0,
    maximum: 100_000,
    description: "Zero-based offset, 0 to 100000; default 0. Not with `cursor`. 1 credit per full 1,000 rows skipped.",
  }),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: "Page size, 1 to 100." }),
  facets: Type.String({
    minLength: 1,
    maxLength: 400,
    description: `Comma-separated fields to count over the whole match set, up to 8: ${FILTER_FIELD_NAMES.join(", ")}.`,
    "x-expected": `up to 8 comma-separated fields among ${FILTER_FIELD_NAMES.join(", ")}`,
  }),
  facet_limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: "Values per facet, 1 to 100." }),
  cursor: Type.String({
    minLength: 1,
    maxLength: 1000,
    description:
      "Cursor paging of a newest-first browse: `start` for the first page, then each response's `next_cursor`. Not with `q` or `offset`; repeat the same filters and window on every page.",
    "x-expected": "start, or a next_cursor returned by this endpoint",
  }),
  view: oneOf(["full", "compact"] as const, {
    description: "`compact` keeps only id, title, url, source, published_at, language, story_id, score.",
    default: "full",
  }),
  article_id: Type.String({ minLength: 1, maxLength: 200, description: "Article id, as returned in `id`." }),
  resume_after: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "GET /export: the `id` of the last article line received; the export continues right after it. Repeat the same filters and window.",
  }),
  story_key: Type.String({
    minLength: 1,
    maxLength: 200,
    description: "Story id, as returned in `story_id`. An article id answers with the story that article belongs to.",
  }),
  story_offset: Type.Integer({
    minimum: 0,
    maximum: 1000,
    description: "Zero-based offset into the stories, 0 to 1000; default 0. 1 credit per full 100 stories skipped.",
  }),
  sort: oneOf(["count", "outlets", "recency"] as const, {
    description:
      "`count` (most articles first), `outlets` (most distinct publishers first) or `recency` (newest matching article first). Default: the best match first with `q`, else `recency`.",
  }),
  expansion_limit: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 20,
    description: "Articles listed, 1 to 100; caps only the list, not the counts.",
  }),
  estimate: Type.Boolean({
    description:
      "true: return the call's price (credit range, breakdown, credits remaining, whether it would run now) without running it. Costs 0.",
  }),
  max_credits: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    description: "Refuse the call at no cost (400 `credit_budget_exceeded`) when its worst case exceeds this many credits.",
  }),
  // Entities and time series (GET /entities, `entity_id`, GET /aggregate).
  entity_id: Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 2000 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 5 }),
    ],
    {
      description:
        "Up to 5 entity ids from /entities (`<type>:<name>`, e.g. `person:joe biden`), comma-separated or repeated; over MCP a string or an array of strings. Each matches every spelling of its group within the window; several must all match; an id with no spelling in the window matches nothing. 1 to 2 credits per id.",
      "x-expected": "up to 5 entity ids <type>:<name> (type one of " + ENTITY_TYPES.join(", ") + "), comma-separated or repeated",
    },
  ),
  entity_name: Type.String({
    minLength: 1,
    maxLength: 300,
    description: "The name as the user wrote it (`Joe Biden`, `biden`, `NATO`).",
  }),
  entity_type: oneOf(ENTITY_TYPES, { description: "Entity type: which extracted values the name is looked for among." }),
  interval: oneOf(INTERVALS, {
    description: "Bucket width: `hour`, `day`, `week` (starting Monday, UTC), `month`, or `all` (one bucket for the window).",
  }),
  metrics: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "Comma-separated metrics per bucket beyond the article count: `stories` (distinct stories), `outlets` (distinct publishers), `signal:<name>` (a signal's mean and percentile).",
    "x-expected": "comma-separated metrics among stories, outlets, signal:<name>",
  }),
  percentile: Type.Number({
    minimum: 1,
    maximum: 99.9,
    default: 90,
    description: "The percentile reported for `signal:<name>` metrics, 1 to 99.9; default 90.",
  }),
} as const;

/**
 * The exact-match filters (spec section 4) this index serves, one per
 * FILTER_FIELDS entry (checked below), the derived `event_type` and `signal`
 * included.
 */
const EXACT_FILTERS = {
  source: Type.Optional(Params.source),
  source_type: Type.Optional(Params.source_type),
  publisher_country: Type.Optional(Params.publisher_country),
  language: Type.Optional(Params.language),
  story_id: Type.Optional(Params.story_id),
  topic: Type.Optional(Params.topic),
  organization: Type.Optional(Params.organization),
  person: Type.Optional(Params.person),
  name: Type.Optional(Params.name),
  country: Type.Optional(Params.country),
  author: Type.Optional(Params.author),
  location: Type.Optional(Params.location),
  city: Type.Optional(Params.city),
  region: Type.Optional(Params.region),
  location_id: Type.Optional(Params.location_id),
  mentioned_date: Type.Optional(Params.mentioned_date),
  quote_verb: Type.Optional(Params.quote_verb),
  amount_object: Type.Optional(Params.amount_object),
  event_type: Type.Optional(Params.event_type),
  signal: Type.Optional(Params.signal),
};

/** Bounds on signal intensities (spec section 4): every endpoint taking the shared filters takes them. */
export const SIGNAL_BOUNDS = {
  signal_min: Type.Optional(Params.signal_min),
  signal_max: Type.Optional(Params.signal_max),
  signals: Type.Optional(Params.signals),
};

/** Filters /search, /stories and /top-headlines take beyond the shared ones (not /aggregate, not watches). */
export const LIST_FILTERS = {
  signal_percentile_min: Type.Optional(Params.signal_percentile_min),
  near: Type.Optional(Params.near),
  radius_km: Type.Optional(Params.radius_km),
  bbox: Type.Optional(Params.bbox),
  amount_min: Type.Optional(Params.amount_min),
  amount_max: Type.Optional(Params.amount_max),
};

/** The window of a query over published_at. */
export const WINDOW = {
  from: Type.Optional(Params.from),
  to: Type.Optional(Params.to),
};

/** `entity_id`: entity groups from /entities, resolved to their spellings in the window. */
export const ENTITY_FILTER = { entity_id: Type.Optional(Params.entity_id) };

/** The shared filter parameters (spec section 4): the exact-match filters, entity ids, signal bounds and the window, for every endpoint that takes them. */
export const SHARED_FILTERS = { ...EXACT_FILTERS, ...ENTITY_FILTER, ...SIGNAL_BOUNDS, ...WINDOW };

// Compile-time: a filter parameter without its field in the index (or a field no parameter filters on) fails tsc.
const filtersMatchFields: Same<keyof typeof EXACT_FILTERS, FilterField> = true;
// The ranking modes `mode` declares are the ones the search prices and runs.
const modesMatch: Same<Static<typeof Params.mode>, RankingMode> = true;
void filtersMatchFields;
void modesMatch;

/** GET /aggregate takes every shared filter but these (spec, GET /aggregate). */
const NOT_ON_AGGREGATE = ["near", "radius_km", "bbox", "amount_min", "amount_max"] as const;

/** The shared filters of /aggregate. */
export const AGGREGATE_FILTERS = Object.fromEntries(
  Object.entries(SHARED_FILTERS).filter(([name]) => !(NOT_ON_AGGREGATE as readonly string[]).includes(name)),
) as Omit<typeof SHARED_FILTERS, (typeof NOT_ON_AGGREGATE)[number]>;

/**
 * What chooses the stories of /stories: `q`, `mode` and the filters, without
 * window, order or paging. A watch's body carries these fields under the same
 * names (spec 02, POST /watches), so both are checked by these declarations.
 */
export const STORY_QUERY = {
  q: Type.Optional(Params.q),
  mode: Type.Optional(Params.mode),
  ...EXACT_FILTERS,
  ...ENTITY_FILTER,
  ...SIGNAL_BOUNDS,
};

/**
 * Parameters as validation delivers them from an object of these declarations:
 * what a request parser takes is typed from what the operation declares, never
 * written beside it.
 */
export type ParamsOf<T extends TProperties> = Static<TObject<T>>;

/** A JSON request body: fields declared like parameters (often the very same ones), no others. */
export function jsonBody<T extends TProperties>(fields: T): TObject<T> {
  return Type.Object(fields, { additionalProperties: false });
}

/** Paging, facets and presentation of the article-list endpoints (/search, /top-headlines). */
export const LIST_PARAMS = {
  offset: Type.Optional(Params.offset),
  limit: Type.Optional(Params.limit),
  facets: Type.Optional(Params.facets),
  facet_limit: Type.Optional(Params.facet_limit),
  view: Type.Optional(Params.view),
  cursor: Type.Optional(Params.cursor),
};

// --- Watches (spec 02): the fields of a watch's body besides its /stories
// query, and the parameters of the watch endpoints. The query fields are the
// /stories declarations themselves (app/operations/watches/watch-query.ts).

export const WatchParams = {
  watch_id: Type.String({ minLength: 1, maxLength: 200, description: "Watch id, as returned in `id`." }),
  events_after: Type.String({
    minLength: 1,
    maxLength: 600,
    // An event id's form (domain/watches/story-growth.ts eventId): anything else would page from nowhere.
    pattern: "^\\d{14}-(new_story|story_growth)-\\S+$",
    description:
      "Return events older than this event id (`<14-digit stamp>-new_story-…` or `-story_growth-…`): pass the previous page's `next_after`. Anything else is `invalid_parameter`.",
    "x-expected": "an event id such as a previous page's next_after",
  }),
  events_limit: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: "Events per page, 1 to 100." }),
  label: Type.String({
    maxLength: 200,
    description: "Free text to recognise the watch by. Not a filter: `name` is the proper-name filter.",
  }),
  interval_minutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    description: "Minutes between runs, whole, from the plan's floor (free 60, build 15, scale 5, archive 1) to 1440.",
    "x-expected": "whole minutes from the plan's floor (free 60, build 15, scale 5, archive 1) to 1440",
  }),
  minimum_outlets: Type.Integer({
    minimum: 1,
    maximum: 100,
    default: 2,
    description: "Outlets a story needs before it is reported (`new_story`), 1 to 100.",
  }),
  notify_on: Type.Array(oneOf(EVENT_KINDS, { description: "An event kind." }), {
    minItems: 1,
    maxItems: EVENT_KINDS.length,
    uniqueItems: true,
    default: [...EVENT_KINDS],
    description: "Event kinds to record: `new_story`, `story_growth`; default both.",
    "x-expected": "a non-empty array of distinct kinds among new_story, story_growth",
  }),
  webhook_url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      "https URL on a public host that receives each event as a signed POST. Loopback, private, link-local, carrier-grade NAT, documentation and IPv4-mapped addresses are refused, at creation and at every delivery.",
    "x-expected": "an https URL on a public host",
  }),
} as const;
// The relationship graph (spec 02, GET /graph/*): its own parameters, and the
// window and narrowing filters every graph endpoint takes.

export const GraphParams = {
  entity: Type.String({
    minLength: 1,
    maxLength: 2000,
    description:
      "One entity id from /entities (`<type>:<name>`, e.g. `organization:nato`); URL-encode it (keys keep their spaces).",
    "x-expected": "one entity id <type>:<name> (type one of " + ENTITY_TYPES.join(", ") + ")",
  }),
  types: Type.String({
    minLength: 1,
    maxLength: 200,
    description:
      "Comma list of neighbour types among organization, person, location, city, region, topic, name. Default `organization,person,location,topic`.",
    "x-expected": "a comma list among organization, person, location, city, region, topic, name",
  }),
  related_limit: Type.Integer({ minimum: 1, maximum: 50, default: 20, description: "Edges returned, 1 to 50." }),
  evidence: Type.Integer({
    minimum: 0,
    maximum: 10,
    default: 3,
    description:
      "0 to 10; default 3. The number of strongest edges that get evidence and the articles each carries; 0 gives counts only. 2 index queries (credits) per edge, within the 16-query cap.",
  }),
  max_hops: Type.Integer({
    minimum: 1,
    maximum: 2,
    default: 2,
    description: "1 (the direct edge only) or 2 (paths through a shared neighbour).",
  }),
  limit_per_type: Type.Integer({
    minimum: 1,
    maximum: 20,
    default: 10,
    description: "Neighbours listed per type, 1 to 20; default 10.",
  }),
  network_evidence: Type.Integer({
    minimum: 0,
    maximum: 10,
    default: 0,
    description:
      "0 to 10; default 0 (counts only). The number of strongest neighbours (across types) that get evidence and the articles each carries; 2 index queries (credits) each, within the 16-query cap.",
  }),
  compare_from: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description:
      "Start of the window to compare with (`YYYY-MM-DD` or 14-digit), usually before `from`. With `compare_to`; clamped to the plan like `from`. A flat 3 credits.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  compare_to: Type.String({
    pattern: TIME_BOUND_PATTERN,
    description: "End of the window to compare with (`YYYY-MM-DD`, the whole day, or 14-digit). With `compare_from`.",
    "x-expected": "a date YYYY-MM-DD or a 14-digit UTC timestamp YYYYMMDDHHMMSS",
  }),
  exposures_entity_id: Type.Union(
    [
      Type.String({ minLength: 1, maxLength: 2000 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: 5 }),
    ],
    {
      description:
        "2 to 5 entity ids from /entities (`<type>:<name>`), comma-separated or repeated as on /search; over MCP a string or an array of strings.",
      "x-expected": "2 to 5 entity ids <type>:<name>, comma-separated or repeated",
    },
  ),
} as const;

/** The window and the filters that narrow graph counts (not the id lookups). */
export const GRAPH_SCOPE = {
  ...WINDOW,
  language: Type.Optional(Params.language),
  publisher_country: Type.Optional(Params.publisher_country),
  source_type: Type.Optional(Params.source_type),
  country: Type.Optional(Params.country),
};
