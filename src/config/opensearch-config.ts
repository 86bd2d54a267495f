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
};

/** The raw settings from the environment, for the config schema to check. */
export function openSearchSettings(env: NodeJS.ProcessEnv): { opensearchUrls?: string[]; opensearchPrefix: string } {
  const urls = (env.NEWSINDEX_OPENSEARCH_URL ?? "")
    .split(",")
    .map((url) => url.trim().replace(/\/+$/, ""))
    .filter((url) => url !== "");
  return {
    ...(urls.length > 0 ? { opensearchUrls: urls } : {}),
    opensearchPrefix: env.NEWSINDEX_OPENSEARCH_PREFIX || "newsindex",
  };
}
