import { Type, type TLiteral, type TObject, type TProperties, type TUnion } from "@sinclair/typebox";
import { SOURCE_TYPES } from "../domain/article.js";
import { FILTER_FIELD_NAMES, type FilterField } from "../domain/filter-fields.js";
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
  mode: oneOf(["keyword"] as const, {
    description: "Ranking mode. `keyword` (BM25). Semantic and hybrid ranking are not served by this index yet.",
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
    pattern: "^\\d{4}-\\d{2}-\\d{2}$",
    description: "A date mentioned in the text (not the publication date), `YYYY-MM-DD`.",
    "x-expected": "a date YYYY-MM-DD",
  }),
  quote_verb: exact("Verb introducing a quotation (article detail `quotes[].verb`).", 200),
  amount_object: exact("Object an amount describes (article detail `amounts[].object`)."),
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
} as const;

/**
 * The exact-match filters (spec section 4) this index serves, one per
 * FILTER_FIELDS entry (checked below). `entity_id`, the geographic,
 * event-class, amount and signal filters need derived vocabularies and are not
 * served yet (they are unknown parameters until they are).
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
};

/** The window of a query over published_at. */
export const WINDOW = {
  from: Type.Optional(Params.from),
  to: Type.Optional(Params.to),
};

/** The shared filter parameters (spec section 4): the exact-match filters and the window, for every endpoint that takes them. */
export const SHARED_FILTERS = { ...EXACT_FILTERS, ...WINDOW };

// Compile-time: a filter parameter without its field in the index (or a field no parameter filters on) fails tsc.
const filtersMatchFields: Same<Exclude<keyof typeof SHARED_FILTERS, keyof typeof WINDOW>, FilterField> = true;
void filtersMatchFields;

/**
 * What chooses the stories of /stories: `q`, `mode` and the filters, without
 * window, order or paging. A watch's body carries these fields under the same
 * names (spec 02, POST /watches), so both are checked by these declarations.
 */
export const STORY_QUERY = {
  q: Type.Optional(Params.q),
  mode: Type.Optional(Params.mode),
  ...EXACT_FILTERS,
};

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
// /stories declarations themselves (operations/watches/watch-query.ts).

export const WatchParams = {
  watch_id: Type.String({ minLength: 1, maxLength: 200, description: "Watch id, as returned in `id`." }),
  events_after: Type.String({
    minLength: 1,
    maxLength: 600,
    description: "Return events older than this event id: pass the previous page's `next_after`.",
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
