import type { ArticleDetail } from "../../domain/article.js";
import { ATTRIBUTION } from "../../domain/attribution.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleStore } from "../../ports/article-store.js";
import { ApiError } from "../../shared/api-error.js";
import { beyondPlanReach, isBeyondReach } from "../query-kernel/plan-window.js";

// GET /doc/{id}: full metadata of one article. 404 is a statement of absence
// (safe to cache); an unreadable index is 503, never a 404; an article
// published before the plan reaches is not served (ids are guessable).

export async function getArticle(
  index: ArticleStore,
  id: string,
  plan: Plan,
  nowMs: number,
): Promise<ArticleDetail & { attribution: string }> {
  const lookup = await index.getArticle(id);
  switch (lookup.status) {
    case "found":
      // No publication time: the collection time the id begins with stands in, as it does at ingest.
      if (isBeyondReach(lookup.article.published_at ?? id.slice(0, 14), plan, nowMs))
        throw beyondPlanReach(`Article ${id}`, plan, nowMs);
      return { ...lookup.article, attribution: ATTRIBUTION };
    case "absent":
      throw new ApiError("not_found", `No article has the id ${id}.`);
    case "unavailable":
      throw new ApiError(
        "upstream_unavailable",
        `The index holding ${id} could not be read. This is not evidence that the article is absent; retry with backoff.`,
      );
  }
}
