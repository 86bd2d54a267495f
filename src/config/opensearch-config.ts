import { Type } from "@sinclair/typebox";

// The scaled shape's OpenSearch settings: which nodes to talk to and the prefix
// of every index, alias and template name this deployment owns (so several
// deployments, or test runs, can share one cluster).

export const OpenSearchConfigSchema = {
  /** OpenSearch node URLs (NEWSINDEX_OPENSEARCH_URL, comma-separated): requests are spread across them. */
  opensearchUrls: Type.Optional(Type.Array(Type.String({ pattern: "^https?://[^/?#]+(/[^?#]*)?$" }), { minItems: 1 })),
  /**
   * Prefix of the names of indices, aliases and templates (NEWSINDEX_OPENSEARCH_PREFIX). Lower case, as OpenSearch
   * requires of index names, and short enough that a monthly index name stays well within its 255 bytes.
   */
  opensearchPrefix: Type.String({ pattern: "^[a-z][a-z0-9_-]{0,39}$" }),
  /** Primary shards of each monthly index created from now on (NEWSINDEX_OPENSEARCH_SHARDS; docs/operators.md sizes them). */
  opensearchShards: Type.Integer({ minimum: 1, maximum: 64 }),
  /**
   * Copies of each shard on other nodes (NEWSINDEX_OPENSEARCH_REPLICAS): 0 on a single node, 1 on a cluster so a
   * lost node loses no article.
   */
  opensearchReplicas: Type.Integer({ minimum: 0, maximum: 8 }),
};

/** The raw settings from the environment, for the config schema to check. */
export function openSearchSettings(env: NodeJS.ProcessEnv): {
  opensearchUrls?: string[];
  opensearchPrefix: string;
  opensearchShards: number | string;
  opensearchReplicas: number | string;
} {
  const urls = (env.NEWSINDEX_OPENSEARCH_URL ?? "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter((url) => url !== "");
  return {
    ...(urls.length > 0 ? { opensearchUrls: urls } : {}),
    opensearchPrefix: env.NEWSINDEX_OPENSEARCH_PREFIX || "newsindex",
    opensearchShards: countOrRaw(env.NEWSINDEX_OPENSEARCH_SHARDS, 1),
    opensearchReplicas: countOrRaw(env.NEWSINDEX_OPENSEARCH_REPLICAS, 0),
  };
}

/** A whole number when the variable reads as one, else the raw text for the schema to refuse; `fallback` when unset. */
function countOrRaw(value: string | undefined, fallback: number): number | string {
  if (value === undefined || value.trim() === "") return fallback;
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}
