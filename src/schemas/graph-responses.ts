import { Type, type Static, type TObject } from "@sinclair/typebox";
import { ENTITY_TYPES } from "../domain/entities/entity-key.js";
import { EDGE_TYPES } from "../domain/graph.js";
import { CompactArticleSchema, envelopeProperties, FacetSchema, type Uncharged } from "./responses.js";

// The four graph endpoints (spec 02: Graph seed, Graph edge, Graph path, the
// fields on every graph response). Where the spec leaves the body of
// /graph/network and /graph/exposures "not shown", the fields here are ours,
// described in docs/relationships.md.

const Stamp = Type.String({ pattern: "^\\d{14}$", description: "14-digit UTC YYYYMMDDHHMMSS." });
const EntityType = Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t)));
const EdgeType = Type.Union(EDGE_TYPES.map((t) => Type.Literal(t)));

export const GraphSeedSchema = Type.Object(
  {
    entity_id: Type.String({ description: "As passed." }),
    type: EntityType,
    aliases_used: Type.Array(Type.String(), {
      description:
        "Spellings matched in the window. Empty: nothing can be connected to it there, which does not mean it has no connections.",
    }),
    articles: Type.Optional(
      Type.Integer({ description: "Articles mentioning it in the window (narrowing filters applied), when counted." }),
    ),
  },
  { $id: "GraphSeed" },
);

export const GraphEdgeSchema = Type.Object(
  {
    entity_id: Type.String({ description: "The associated entity (er-v1 id)." }),
    type: EdgeType,
    label: Type.String({ description: "Its most frequent spelling." }),
    aliases: Type.Array(Type.String(), { description: "Its spellings among the co-mentions, most frequent first." }),
    co_mentions: Type.Integer({
      description: "Articles mentioning both. Exact when the edge carries evidence (`approximate: false`).",
    }),
    share: Type.Number({
      description:
        "co_mentions over the articles mentioning the entity the edge is seen from (the start entity; the end entity for a path's second hop), three decimals.",
    }),
    evidence: Type.Array(CompactArticleSchema, {
      description:
        "Newest articles mentioning both. Empty when not requested, below the evidence cut, or when the query budget was spent.",
    }),
    first_seen: Type.Optional(Stamp),
    last_seen: Type.Optional(Stamp),
    sources: Type.Optional(
      Type.Integer({ description: "Distinct publishers among the co-mentions, when evidence was gathered." }),
    ),
    stories: Type.Optional(
      Type.Integer({ description: "Distinct clustered stories among the co-mentions, when evidence was gathered." }),
    ),
    approximate: Type.Boolean({
      description:
        "True when the count came from a capped facet, from spellings one article can repeat, or was summed across monthly indexes: an upper bound. Evidence replaces it with an exact count.",
    }),
  },
  { $id: "GraphEdge" },
);

export const GraphPathSchema = Type.Object(
  {
    hops: Type.Array(Type.String(), { description: "Entity ids from the start through the shared neighbour to the end." }),
    edges: Type.Array(GraphEdgeSchema, { description: "One edge per hop, each describing the entity it reaches." }),
    strength: Type.Integer({ description: "The weaker hop's co_mentions." }),
  },
  { $id: "GraphPath" },
);

/** The fields on every graph response. */
const graphEnvelope = {
  note: Type.String({
    description: "The association caveat: co-mention in reporting, not ownership, partnership, causation or exposure.",
  }),
  indexed_through: Type.Union([Stamp, Type.Null()], {
    description: "The newest article the answering index holds in the window; null when the window holds none.",
  }),
  entity_resolution_version: Type.String({ description: "`er-v1`." }),
  ...envelopeProperties,
};

export const RelatedResponseSchema = Type.Object(
  {
    seed: GraphSeedSchema,
    related: Type.Array(GraphEdgeSchema, {
      description: "Ranked together across types by co_mentions, strongest first, cut at `limit`; the start entity excluded.",
    }),
    ...graphEnvelope,
  },
  { $id: "GraphRelatedResponse" },
);

export const PathResponseSchema = Type.Object(
  {
    from: GraphSeedSchema,
    to: GraphSeedSchema,
    direct: GraphEdgeSchema,
    paths: Type.Array(GraphPathSchema, { description: "At most 5, strongest first; empty with `max_hops=1`." }),
    ...graphEnvelope,
  },
  { $id: "GraphPathResponse" },
);

const ChangeSchema = Type.Object(
  {
    entity_id: Type.String(),
    type: EdgeType,
    label: Type.String(),
    co_mentions: Type.Integer({ description: "In the window (`from`/`to`); 0 for a neighbour gone." }),
    share: Type.Number(),
    previous_co_mentions: Type.Integer({
      description: "In the compared window (`compare_from`/`compare_to`); 0 for a new neighbour.",
    }),
    previous_share: Type.Number(),
    approximate: Type.Boolean({ description: "Either count is an upper bound (see GraphEdge `approximate`)." }),
  },
  { $id: "GraphNetworkChange" },
);

export const NetworkResponseSchema = Type.Object(
  {
    seed: GraphSeedSchema,
    types: Type.Array(EdgeType, { description: "The types counted, as requested." }),
    neighbors: Type.Record(Type.String(), Type.Array(GraphEdgeSchema), {
      description: "Per requested type, its strongest neighbours (at most `limit_per_type`, at most 20), strongest first.",
    }),
    comparison: Type.Optional(
      Type.Object(
        {
          from: Type.Union([Stamp, Type.Null()]),
          to: Type.Union([Stamp, Type.Null()]),
          from_clamped: Type.Boolean({ description: "True when `compare_from` was moved forward to the plan's reach." }),
          seed: GraphSeedSchema,
          new: Type.Array(ChangeSchema, { description: "Neighbours listed now that the compared window did not count." }),
          gone: Type.Array(ChangeSchema, { description: "Neighbours the compared window listed that are not counted now." }),
          grew: Type.Array(ChangeSchema, { description: "Ties in both windows whose share grew by half or more." }),
          fell: Type.Array(ChangeSchema, { description: "Ties in both windows whose share fell by a third or more." }),
        },
        { description: "With `compare_from`/`compare_to`: how the neighbourhood changed from the compared window to this one." },
      ),
    ),
    ...graphEnvelope,
  },
  { $id: "GraphNetworkResponse" },
);

export const ExposuresResponseSchema = Type.Object(
  {
    entities: Type.Array(GraphSeedSchema, { description: "The ids as passed, with their spellings in the window." }),
    shared: Type.Object(
      {
        articles: Type.Integer({ description: "Articles mentioning every entity (narrowing filters applied). Exact." }),
        stories: Type.Integer({ description: "Distinct clustered stories among them." }),
        sources: Type.Integer({ description: "Distinct publishers among them." }),
        first_seen: Type.Optional(Stamp),
        last_seen: Type.Optional(Stamp),
        approximate: Type.Boolean({
          description: "True when stories and sources were summed across monthly indexes (upper bounds).",
        }),
      },
      { description: "What the entities have in common in the window." },
    ),
    facets: Type.Optional(
      Type.Record(Type.String(), FacetSchema, { description: "With `facets`: value counts over the shared articles." }),
    ),
    signal_stats: Type.Optional(
      Type.Record(Type.String(), Type.Object({ mean: Type.Number(), articles: Type.Integer() }), {
        description: "Per signal (signals-v1), its mean intensity over the shared articles carrying it and how many carry it.",
      }),
    ),
    evidence: Type.Array(CompactArticleSchema, { description: "The newest shared articles, at most `evidence`." }),
    ...graphEnvelope,
  },
  { $id: "GraphExposuresResponse" },
);

// The bodies the graph services build (Static<>): the runner adds `credits_charged`.
export type GraphSeed = Static<typeof GraphSeedSchema>;
export type GraphEdge = Static<typeof GraphEdgeSchema>;
export type GraphPath = Static<typeof GraphPathSchema>;
export type GraphEnvelope = Uncharged<Static<TObject<typeof graphEnvelope>>>;
export type RelatedResponse = Uncharged<Static<typeof RelatedResponseSchema>>;
export type PathResponse = Uncharged<Static<typeof PathResponseSchema>>;
export type NetworkChange = Static<typeof ChangeSchema>;
export type NetworkResponse = Uncharged<Static<typeof NetworkResponseSchema>>;
export type NetworkComparison = NonNullable<NetworkResponse["comparison"]>;
export type ExposuresResponse = Uncharged<Static<typeof ExposuresResponseSchema>>;
export type SharedExposure = ExposuresResponse["shared"];
