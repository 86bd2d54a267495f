import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { SOURCE_TYPES, type Article, type ArticleDetail, type CompactArticle } from "../domain/article.js";
import { COVERAGE_VALUES } from "../domain/coverage.js";
import type { Facet } from "../domain/facets.js";
import { PLAN_IDS } from "../domain/plans.js";
import { EVENT_TYPES } from "../domain/vocabularies/events-v1.js";
import { SIGNALS_VERSION, SIGNAL_UNIT } from "../domain/vocabularies/signals-v1.js";
import { DELIVERY_STATUSES, EVENT_KINDS, WATCH_STATUSES } from "../domain/watches/watch.js";
import type { MatchedLocation } from "../domain/geo-area.js";
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from "../shared/api-error.js";
import type { Same } from "../shared/same-type.js";

// Response shapes of the public contract (spec section 2), for OpenAPI and MCP
// output schemas, and the types the services build (Static<>, at the bottom).
// Compile-time checks keep the shared parts equal to the domain types.

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Stamp = Type.String({ pattern: "^\\d{14}$", description: "14-digit UTC YYYYMMDDHHMMSS." });
const Strings = Type.Array(Type.String());

const articleProperties = {
  id: Type.String({ description: "Stable article id; begins with the 14-digit collection timestamp." }),
  title: Nullable(Type.String()),
  url: Nullable(Type.String()),
  source: Nullable(Type.String({ description: "Publisher domain, no scheme, no www." })),
  source_type: Nullable(Type.Union(SOURCE_TYPES.map((s) => Type.Literal(s)))),
  publisher_country: Nullable(Type.String({ description: "Two-character FIPS 10-4 identifier." })),
  language: Nullable(Type.String({ description: "ISO 639-3." })),
  published_at: Nullable(Stamp),
  collected_at: Nullable(Stamp),
  authors: Strings,
  countries: Strings,
  locations: Strings,
  organizations: Strings,
  persons: Strings,
  topics: Strings,
  image: Nullable(Type.String()),
  tone: Nullable(Type.Number()),
  word_count: Nullable(Type.Integer()),
  story_id: Nullable(Type.String()),
  signals: Type.Optional(
    Type.Object(
      {
        version: Type.String({ description: `\`${SIGNALS_VERSION}\`.` }),
        unit: Type.String({ description: `\`${SIGNAL_UNIT}\`: intensity per 1,000 words of the article.` }),
        industries: Type.Record(Type.String(), Type.Number()),
        business_context: Type.Record(Type.String(), Type.Number()),
        risk_context: Type.Record(Type.String(), Type.Number()),
      },
      {
        description:
          "Signal intensities (signals-v1, see /docs/signals-and-events.md); a signal left out is 0. Absent when the article predates the vocabulary. Not sentiment.",
      },
    ),
  ),
  event_types: Type.Optional(
    Type.Array(Type.Union(EVENT_TYPES.map((e) => Type.Literal(e))), {
      description:
        "Event classes (events-v1) the article carries; [] when none. Absent when the article predates the vocabulary.",
    }),
  ),
};

export const ArticleSchema = Type.Object(articleProperties, { $id: "Article" });

export const SearchHitSchema = Type.Object(
  {
    ...articleProperties,
    score: Type.Optional(Type.Number({ description: "Present on ranked queries only; comparable within one response." })),
    matched_locations: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String(),
          country: Nullable(Type.String({ description: "Two-character FIPS 10-4 identifier." })),
          latitude: Type.Number(),
          longitude: Type.Number(),
          distance_km: Type.Optional(Type.Number({ description: "From the `near` point; only with `near`." })),
        }),
        {
          description:
            "Present only when `near` or `bbox` filtered the request: the mentioned cities that matched, nearest first (to the `near` point, or to the centre of the `bbox`).",
        },
      ),
    ),
  },
  { $id: "SearchHit" },
);

export const CompactArticleSchema = Type.Object(
  {
    id: articleProperties.id,
    title: articleProperties.title,
    url: articleProperties.url,
    source: articleProperties.source,
    published_at: articleProperties.published_at,
    language: articleProperties.language,
    story_id: articleProperties.story_id,
    score: Type.Optional(Type.Number()),
  },
  { $id: "CompactArticle" },
);

const Num = Nullable(Type.Number());

export const ArticleDetailSchema = Type.Object(
  {
    ...articleProperties,
    activity_density: Num,
    negative_score: Num,
    polarity: Num,
    positive_score: Num,
    self_reference_density: Num,
    cities: Strings,
    regions: Strings,
    mentioned_dates: Type.Array(Type.String({ description: "YYYY, YYYY-MM, YYYY-MM-DD or --MM-DD." })),
    names: Strings,
    amounts: Type.Array(Type.Object({ number: Nullable(Type.Number()), object: Type.String(), value: Type.String() })),
    quotes: Type.Array(Type.Object({ text: Type.String(), verb: Type.String() })),
    date_mentions: Type.Array(
      Type.Object({
        date: Type.String(),
        precision: Type.Union([Type.Literal("year"), Type.Literal("month"), Type.Literal("day"), Type.Literal("month_day")]),
      }),
    ),
    location_details: Type.Array(
      Type.Object({
        country: Nullable(Type.String()),
        kind: Type.Union([Type.Literal("country"), Type.Literal("region"), Type.Literal("city")]),
        latitude: Num,
        location_id: Nullable(Type.String()),
        longitude: Num,
        name: Type.String(),
        region_id: Nullable(Type.String()),
        subregion_id: Nullable(Type.String()),
      }),
    ),
    amp_url: Nullable(Type.String()),
    mobile_url: Nullable(Type.String()),
    links: Strings,
    related_images: Strings,
    social_images: Strings,
    social_videos: Strings,
  },
  { $id: "ArticleDetail" },
);

/** `signal_percentile_min`'s threshold (spec section 2, Search response). */
const SignalThresholdSchema = Type.Object(
  {
    name: Type.String(),
    percentile: Type.Number(),
    value: Nullable(
      Type.Number({ description: "The intensity used as the lower bound; null when no matching article carries the signal." }),
    ),
    approximate: Type.Boolean(),
  },
  { description: "Present when `signal_percentile_min` was passed." },
);

/** `resolved` (spec "Search response"): each `entity_id` with the spellings it matched in the window. */
export const ResolvedEntitiesSchema = Type.Array(
  Type.Object({
    entity_id: Type.String(),
    aliases_used: Type.Array(Type.String(), { description: "Spellings of the group found in the window, most carried first." }),
  }),
  { description: "When `entity_id` was passed: each id and the spellings it matched; empty `aliases_used` matches nothing." },
);

/** Fields every priced response carries about its window and completeness. */
export const envelopeProperties = {
  history_days: Nullable(Type.Integer({ description: "How far back the plan reaches; null is the full archive." })),
  from_clamped: Type.Boolean({ description: "True when a supplied `from` was moved forward to the plan boundary." }),
  partial: Type.Boolean({ description: "True: part of the index could not be read; a short answer is not evidence of absence." }),
  coverage: Type.Union(COVERAGE_VALUES.map((c) => Type.Literal(c))),
  credits_charged: Type.Integer(),
  attribution: Type.String(),
};

export const FacetSchema = Type.Object(
  {
    values: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }), {
      description: "Most frequent values first; ties by value.",
    }),
    sum_other_doc_count: Type.Integer({ description: "Occurrences of the values not listed." }),
    doc_count_error_upper_bound: Type.Integer({
      description: "How far any count (or a value left out) can be off after merging monthly indexes; 0 when exact.",
    }),
    approximate: Type.Boolean({ description: "True when doc_count_error_upper_bound is non-zero." }),
  },
  { $id: "Facet" },
);

export const SearchResponseSchema = Type.Object(
  {
    results: Type.Array(Type.Union([SearchHitSchema, CompactArticleSchema])),
    total: Type.Integer(),
    total_relation: Type.Union([Type.Literal("exact"), Type.Literal("approximate")]),
    offset: Type.Integer(),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    mode: Type.String({
      description:
        "`keyword`, `semantic` or `hybrid` as requested; `recent` on a browse and on /top-headlines; `similar` on /similar.",
    }),
    facets: Type.Optional(
      Type.Record(Type.String(), FacetSchema, { description: "Present when `facets` was requested: field name to Facet." }),
    ),
    next_cursor: Type.Optional(
      Type.String({ description: "Present on cursor paging while more pages exist: send it as `cursor` for the next page." }),
    ),
    resolved: Type.Optional(ResolvedEntitiesSchema),
    signal_threshold: Type.Optional(SignalThresholdSchema),
    ...envelopeProperties,
  },
  { $id: "SearchResponse" },
);

export const ArticleDetailResponseSchema = Type.Composite(
  [ArticleDetailSchema, Type.Object({ credits_charged: Type.Integer(), attribution: Type.String() })],
  { $id: "ArticleDetailResponse" },
);

export const AccountSchema = Type.Object(
  {
    tenant: Type.String(),
    plan: Type.Union(PLAN_IDS.map((p) => Type.Literal(p))),
    credits_per_minute: Type.Integer(),
    credits_limit: Type.Integer({ description: "Included this month; 0 means unlimited." }),
    credits_used: Type.Integer(),
    credits_remaining: Nullable(Type.Integer({ description: "Null when unlimited." })),
    credits_reset_secs: Type.Integer({ description: "Seconds until the monthly allocation renews (UTC month start)." }),
    period_start: Type.Integer({ description: "Unix timestamp of the start of the current month, UTC." }),
    hard_cap: Type.Boolean(),
    metered_billing: Type.Boolean(),
    history_days: Nullable(Type.Integer()),
    credits_charged: Type.Integer(),
    attribution: Type.String(),
  },
  { $id: "Account" },
);

const ValueCounts = Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() }));

export const StoryDetailSchema = Type.Object(
  {
    story_id: Type.String({ description: "Begins with the 14-digit collection time of the seeding article." }),
    title: Type.String({
      description: "Of the representative article; empty only when no member of the story has a headline.",
    }),
    url: Nullable(Type.String()),
    representative_article_id: Type.String({ description: "The member whose headline most members share." }),
    count: Type.Integer({ description: "Articles in the story within the window." }),
    outlets: Type.Integer({ description: "Distinct publisher domains." }),
    sources: Type.Array(Type.String(), { description: "At most 20; `outlets` is the full count." }),
    first_seen: Stamp,
    last_seen: Stamp,
    first_reported: Type.Object({ article_id: Type.String(), source: Nullable(Type.String()), published_at: Stamp }),
    sources_by_first_seen: Type.Array(Type.Object({ source: Type.String(), first_seen: Stamp })),
    title_variants: Type.Integer({ description: "Distinct normalised headlines among the listed articles." }),
    languages: ValueCounts,
    publisher_countries: ValueCounts,
    top_organizations: ValueCounts,
    top_persons: ValueCounts,
    top_topics: ValueCounts,
    articles: Type.Array(CompactArticleSchema, { description: "Newest first." }),
    articles_returned: Type.Integer(),
    articles_truncated: Type.Boolean(),
    ...envelopeProperties,
  },
  { $id: "StoryDetail" },
);

export const StoryItemSchema = Type.Object(
  {
    story_id: Type.String({ description: "Begins with the 14-digit collection time of the seeding article." }),
    title: Nullable(Type.String({ description: "Of the representative article." })),
    url: Nullable(Type.String({ description: "Of the representative article." })),
    count: Type.Integer({ description: "Articles in the story within the plan's reach, not only those that matched." }),
    outlets: Type.Integer({ description: "Distinct publisher domains." }),
    sources: Type.Array(Type.String(), { description: "At most 20; `outlets` is the full count." }),
    published_at: Stamp,
  },
  { $id: "Story" },
);

export const StoriesResponseSchema = Type.Object(
  {
    stories: Type.Array(StoryItemSchema),
    total: Type.Integer({ description: "Stories matching, not articles." }),
    total_relation: Type.Union([Type.Literal("exact"), Type.Literal("approximate")]),
    offset: Type.Integer(),
    limit: Type.Integer(),
    has_more: Type.Boolean(),
    resolved: Type.Optional(ResolvedEntitiesSchema),
    signal_threshold: Type.Optional(SignalThresholdSchema),
    ...envelopeProperties,
  },
  { $id: "StoriesResponse" },
);

/** The body of `estimate=true` (the spec leaves its field names to us; see /docs/completeness.md). */
export const EstimateResponseSchema = Type.Object(
  {
    estimate: Type.Literal(true),
    operation: Type.String(),
    credits: Type.Object({ min: Type.Integer(), max: Type.Integer() }, { description: "CreditRange: the charge falls in it." }),
    breakdown: Type.Array(
      Type.Object({ item: Type.String(), credits: Type.Object({ min: Type.Integer(), max: Type.Integer() }) }),
    ),
    credits_remaining: Nullable(Type.Integer({ description: "Left this month; null when unlimited." })),
    credits_per_minute_remaining: Type.Integer(),
    would_run: Type.Boolean(),
    refusal: Type.Optional(Type.String({ description: "The code the call would meet now, when `would_run` is false." })),
    refusal_detail: Type.Optional(
      Type.String({
        description: "Why, when the refusal is not a credit one (e.g. `watch_limit`): the detail the call would answer.",
      }),
    ),
    credits_charged: Type.Integer(),
    attribution: Type.String(),
  },
  { $id: "EstimateResponse" },
);

export const ErrorBodySchema = Type.Object(
  {
    error: Type.String({ description: "Short label." }),
    code: Type.Union((Object.keys(ERROR_STATUS) as ErrorCode[]).map((c) => Type.Literal(c))),
    detail: Type.String(),
  },
  { $id: "Error", additionalProperties: true },
);

/** A body as a service builds it: the runner adds `credits_charged` once it knows what the call took. */
export type Uncharged<T> = Omit<T, "credits_charged">;

export type SearchResponse = Uncharged<Static<typeof SearchResponseSchema>>;
export type StoryItem = Static<typeof StoryItemSchema>;
export type StoriesResponse = Uncharged<Static<typeof StoriesResponseSchema>>;
export type StoryDetail = Uncharged<Static<typeof StoryDetailSchema>>;
export type ValueCount = Static<typeof ValueCounts>[number];
export type SignalThreshold = Static<typeof SignalThresholdSchema>;
export type ResolvedEntity = Static<typeof ResolvedEntitiesSchema>[number];
export type Account = Static<typeof AccountSchema>;
export type Preview = Static<typeof EstimateResponseSchema>;

// --- Watches (spec 02, sections 2 and 6). The events list's name (`events`),
// the fields of an event beyond those the spec names, and the webhook body
// are ours (docs/watches.md).

const WatchStatusSchema = Type.Union(WATCH_STATUSES.map((s) => Type.Literal(s)));
const EventKindSchema = Type.Union(EVENT_KINDS.map((k) => Type.Literal(k)));
const chargedProperties = { credits_charged: Type.Integer(), attribution: Type.String() };

const watchProperties = {
  id: Type.String(),
  label: Type.String({ description: "Empty when none was given. Not a filter." }),
  query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())]), {
    description: "The /stories parameters, as query-string values.",
  }),
  interval_minutes: Type.Integer(),
  minimum_outlets: Type.Integer(),
  notify_on: Type.Array(EventKindSchema),
  webhook_url: Nullable(Type.String()),
  status: WatchStatusSchema,
  created_at: Stamp,
  last_run_at: Nullable(Stamp),
  next_run_at: Stamp,
  watermark: Nullable(Type.String({ description: "Start of the last run that came back complete." })),
  consecutive_failures: Type.Integer({ description: "Deliveries in a row that exhausted their retries." }),
  consecutive_incomplete: Type.Integer({ description: "Runs in a row whose answer was partial or failed." }),
};

export const WatchSchema = Type.Object({ ...watchProperties, ...chargedProperties }, { $id: "Watch" });

export const WatchCreatedSchema = Type.Object(
  {
    ...watchProperties,
    webhook_secret: Nullable(
      Type.String({ description: "Signs every delivery (x-service-signature). Returned only here; null without webhook_url." }),
    ),
    ...chargedProperties,
  },
  { $id: "WatchCreated" },
);

export const WatchListSchema = Type.Object(
  {
    watches: Type.Array(Type.Object(watchProperties), { description: "Oldest first; no secrets." }),
    count: Type.Integer({ description: "Watches the account has, across its keys." }),
    limit: Type.Integer({ description: "The plan's cap." }),
    ...chargedProperties,
  },
  { $id: "WatchList" },
);

export const WatchDeletedSchema = Type.Object(
  { deleted: Type.Literal(true), id: Type.String(), ...chargedProperties },
  { $id: "WatchDeleted" },
);

const watchEventProperties = {
  id: Type.String({ description: "Begins with `recorded_at`; events order by id." }),
  kind: EventKindSchema,
  watch_id: Type.String(),
  recorded_at: Stamp,
  occurred_at: Nullable(Stamp),
  story_id: Type.String(),
  title: Nullable(Type.String()),
  url: Nullable(Type.String()),
  count: Type.Integer({ description: "Articles in the story when recorded." }),
  outlets: Type.Integer({ description: "Distinct outlets when recorded." }),
  previous_outlets: Type.Optional(Type.Integer({ description: "story_growth only: outlets at the story's last event." })),
  current_outlets: Type.Optional(Type.Integer({ description: "story_growth only." })),
};

export const WatchEventSchema = Type.Object(
  {
    ...watchEventProperties,
    delivery_status: Nullable(
      Type.Union(
        DELIVERY_STATUSES.map((d) => Type.Literal(d)),
        {
          description: "The webhook delivery: pending, delivered, failed or held_credits; null without a webhook.",
        },
      ),
    ),
  },
  { $id: "WatchEvent" },
);

export const WatchEventsSchema = Type.Object(
  {
    events: Type.Array(WatchEventSchema, { description: "Newest first." }),
    next_after: Nullable(Type.String({ description: "Pass as `after` for older events; null at the oldest kept event." })),
    ...chargedProperties,
  },
  { $id: "WatchEvents" },
);

/** The body of every webhook POST. */
export const WatchWebhookSchema = Type.Object(
  {
    delivery_id: Type.String({ description: "Also in x-service-delivery; the same on every retry of one event." }),
    watch_id: Type.String(),
    label: Type.String(),
    attempt: Type.Integer({ description: "1 for the first attempt, up to 4." }),
    event: Type.Object(watchEventProperties),
  },
  { $id: "WatchWebhook" },
);

export type WatchCreated = Uncharged<Static<typeof WatchCreatedSchema>>;
export type WatchView = Static<typeof WatchListSchema>["watches"][number];
export type WatchBody = Uncharged<Static<typeof WatchSchema>>;
export type WatchList = Uncharged<Static<typeof WatchListSchema>>;
export type WatchDeleted = Uncharged<Static<typeof WatchDeletedSchema>>;
export type WatchEvents = Uncharged<Static<typeof WatchEventsSchema>>;
export type WatchWebhook = Static<typeof WatchWebhookSchema>;

// Compile-time: the schemas and the domain types must stay the same shape.
const articleMatches: Same<Static<typeof ArticleSchema>, Article> = true;
const detailMatches: Same<Static<typeof ArticleDetailSchema>, ArticleDetail> = true;
const compactMatches: Same<Static<typeof CompactArticleSchema>, CompactArticle> = true;
const facetMatches: Same<Static<typeof FacetSchema>, Facet> = true;
const locationMatches: Same<NonNullable<Static<typeof SearchHitSchema>["matched_locations"]>[number], MatchedLocation> = true;
const errorMatches: Same<Static<typeof ErrorBodySchema>, ErrorBody> = true;
void articleMatches;
void compactMatches;
void detailMatches;
void facetMatches;
void locationMatches;
void errorMatches;
