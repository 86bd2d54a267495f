import { Type, type Static } from "@sinclair/typebox";
import { ArticleSchema, CompactArticleSchema, envelopeProperties, ResolvedEntitiesSchema } from "./responses.js";

// GET /export answers NDJSON: one Article (or compact article) per line, then
// one manifest line reconciling the lines to the count.

export const TieGroupCutSchema = Type.Object({
  published_at: Type.String({ description: "The timestamp, 14-digit." }),
  matches: Type.Integer({ description: "Matches at this timestamp." }),
  skipped: Type.Integer({ description: "Of them, those beyond the first 5,000 (by id, descending), which no export serves." }),
});

export const ExportManifestSchema = Type.Object(
  {
    count: Type.Integer({ description: "Article lines this response sent." }),
    total: Type.Integer({ description: "Every match of the query (the /search total), whatever `resume_after`." }),
    sha256: Type.String({ description: "Hex SHA-256 of the article lines of this response, each with its newline." }),
    coverage: envelopeProperties.coverage,
    partial: Type.Boolean({
      description:
        "True when this response is not the rest of the match set: an index failed, a tie group was cut, or it stopped early.",
    }),
    credits_charged: Type.Integer({ description: "What this response cost: 1 credit per 1,000 rows started (at least 1)." }),
    next_resume_after: Type.Union([Type.String(), Type.Null()], {
      description: "When this response stopped before the end: send it as `resume_after` to get the rest. Null when done.",
    }),
    tie_groups_cut: Type.Array(TieGroupCutSchema, {
      description: "Timestamps holding more than 5,000 matches this export reached: only their first 5,000 are served.",
    }),
    resolved: Type.Optional(ResolvedEntitiesSchema),
    history_days: envelopeProperties.history_days,
    from_clamped: envelopeProperties.from_clamped,
    attribution: envelopeProperties.attribution,
  },
  { $id: "ExportManifest" },
);

export type ExportManifest = Static<typeof ExportManifestSchema>;

/** One line of the stream: an article, or the manifest that ends it. */
export const ExportLineSchema = Type.Union(
  [ArticleSchema, CompactArticleSchema, Type.Object({ manifest: ExportManifestSchema })],
  { $id: "ExportLine" },
);
