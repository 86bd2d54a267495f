import { Type, type Static } from "@sinclair/typebox";
import { INTERVALS } from "../domain/aggregate/buckets.js";
import { envelopeProperties, ResolvedEntitiesSchema } from "./responses.js";

// GET /aggregate. The spec leaves the body "not shown"; this one is made for a
// charting client: every bucket of the window in time order, empty ones
// included (zero), each with its natural start and end, so `buckets` plots as
// it comes (docs/search-recipes.md, "Time series").

const Stamp = Type.String({ pattern: "^\\d{14}$", description: "14-digit UTC YYYYMMDDHHMMSS." });

export const AggregateBucketSchema = Type.Object(
  {
    start: Type.Union([Stamp, Type.Null()], {
      description: "The bucket's first second, UTC (weeks start on Monday); null only for `all` over the whole archive.",
    }),
    end: Type.Union([Stamp], { description: "The bucket's last second, inclusive." }),
    articles: Type.Integer({ description: "Matching articles published in the bucket (within the window)." }),
    stories: Type.Optional(Type.Integer({ description: "With `metrics=stories`: distinct stories among them." })),
    outlets: Type.Optional(Type.Integer({ description: "With `metrics=outlets`: distinct publishers among them." })),
    signals: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object({
          mean: Type.Union([Type.Number(), Type.Null()]),
          percentile: Type.Union([Type.Number(), Type.Null()]),
        }),
        {
          description:
            "With `metrics=signal:<name>`: per signal, its mean and its `percentile` over the articles carrying it; null when none does.",
        },
      ),
    ),
    approximate: Type.Boolean({
      description:
        "True when `stories` or `outlets` were summed across monthly indexes (articles of one bucket held in two): a story or outlet in both is counted twice.",
    }),
  },
  { $id: "AggregateBucket" },
);

export const AggregateResponseSchema = Type.Object(
  {
    interval: Type.Union(INTERVALS.map((i) => Type.Literal(i))),
    from: Type.Union([Stamp, Type.Null()], { description: "The window's start; null only for `all` over the whole archive." }),
    to: Stamp,
    metrics: Type.Array(Type.String(), { description: "The metrics asked for, as given; `articles` is always counted." }),
    percentile: Type.Optional(Type.Number({ description: "With signal metrics: the percentile reported." })),
    buckets: Type.Array(AggregateBucketSchema, { description: "Every bucket of the window, oldest first, empty ones included." }),
    total: Type.Integer({ description: "Matching articles in the window: the sum of the buckets." }),
    approximate: Type.Boolean({ description: "True when any bucket's distinct counts are approximate." }),
    resolved: Type.Optional(ResolvedEntitiesSchema),
    ...envelopeProperties,
  },
  { $id: "AggregateResponse" },
);

export type AggregateBucket = Static<typeof AggregateBucketSchema>;
export type AggregateResponse = Omit<Static<typeof AggregateResponseSchema>, "credits_charged">;
