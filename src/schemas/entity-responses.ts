import { Type, type Static } from "@sinclair/typebox";
import { ENTITY_TYPES } from "../domain/entities/entity-key.js";
import { envelopeProperties } from "./responses.js";

// GET /entities (spec "Entity group" and its envelope).

const EntityType = Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t)));
const Match = Type.Union([Type.Literal("exact"), Type.Literal("prefix"), Type.Literal("acronym")]);

export const EntityGroupSchema = Type.Object(
  {
    entity_id: Type.String({ description: "`<type>:<normalised key>`; URL-encode it (keys keep their spaces)." }),
    type: EntityType,
    canonical: Type.String({ description: "The most frequent spelling in the window." }),
    aliases: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer(), match: Match }), {
      description: "Spellings sharing the key, most frequent first; `count` is articles in the window.",
    }),
    articles: Type.Integer({ description: "Articles in the window carrying any of the aliases (each counted once)." }),
    confidence: Type.Number({ description: "1.0 exact, 0.8 prefix on a word boundary, 0.6 acronym." }),
    entity_resolution_version: Type.String({ description: "`er-v1`: ids are stable within it." }),
  },
  { $id: "EntityGroup" },
);

export const EntitiesResponseSchema = Type.Object(
  {
    type: EntityType,
    q: Type.String(),
    entities: Type.Array(EntityGroupSchema, {
      description: "By confidence, then articles. Empty: no such spelling in the window, not evidence of absence from the news.",
    }),
    approximate: Type.Boolean({
      description: "True when a monthly index held more matching spellings than are read from it: the rarest were left out.",
    }),
    limit: Type.Integer(),
    ...envelopeProperties,
  },
  { $id: "EntitiesResponse" },
);

export type EntityGroup = Static<typeof EntityGroupSchema>;
export type EntitiesResponse = Omit<Static<typeof EntitiesResponseSchema>, "credits_charged">;
