import { lookupCredits } from "../../domain/billing/index-usage.js";
import type { EntityRef } from "../../domain/entities/entity-key.js";
import type { Plan } from "../../domain/plans.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { EntityLexicon } from "../../ports/entity-lexicon.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { ResolvedEntity } from "../../schemas/responses.js";
import { completeness, type Completeness } from "../query-kernel/coverage.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";

// An entity id resolved to the spellings of its group within a window (spec:
// "Each matches all spellings in its alias group within the request window").
// The `entity_id` filter of every endpoint reports its groups with this, and
// the graph starts from it.

/** Spellings read at most: a group is a handful of spellings, never thousands. */
const MAX_SPELLINGS = 1000;

export interface EntityAliases {
  entity: EntityRef;
  /** Spellings with an article in the window, the most carried first; empty: the id matches nothing there. */
  aliases: Array<{ value: string; articles: number }>;
  /** What the lookup took (domain/billing/index-usage.ts lookupCredits). */
  credits: 1 | 2;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

/** `counts: false` only asks which spellings occur in the window (aliases then carry `articles: 1`). */
export async function entityAliases(
  index: EntityLexicon,
  entity: EntityRef,
  window: { from?: string | undefined; to?: string | undefined },
  counts = true,
): Promise<EntityAliases> {
  const found = await index.entitySpellings({
    type: entity.type,
    key: entity.key,
    lookup: "id",
    from: window.from,
    to: window.to,
    counts,
    limit: MAX_SPELLINGS,
  });
  return {
    entity,
    aliases: found.spellings.map((s) => ({ value: s.value, articles: s.articles })),
    credits: lookupCredits(found.usage),
    partitionsRead: found.partitionsRead,
    partitionsFailed: found.partitionsFailed,
  };
}

export interface EntityResolution {
  resolved: ResolvedEntity[];
  /** What resolving took: 1 or 2 credits per id. */
  credits: number;
  partitionsRead: string[];
  partitionsFailed: PartitionFailure[];
}

/** Resolves a request's `entity_id` filters within its window as the plan clamps it; undefined without any. */
export async function resolveEntityFilters(
  index: EntityLexicon,
  filters: ArticleFilters,
  plan: Plan,
  nowMs: number,
): Promise<EntityResolution | undefined> {
  const entities = filters.entities ?? [];
  if (entities.length === 0) return undefined;
  const window = applyPlanWindow(plan, filters.from, filters.to, nowMs);
  const all = await Promise.all(entities.map((e) => entityAliases(index, { ...e, id: `${e.type}:${e.key}` }, window, false)));
  return {
    resolved: all.map((a) => ({ entity_id: a.entity.id, aliases_used: a.aliases.map((alias) => alias.value) })),
    credits: all.reduce((sum, a) => sum + a.credits, 0),
    partitionsRead: [...new Set(all.flatMap((a) => a.partitionsRead))],
    partitionsFailed: all.flatMap((a) => a.partitionsFailed),
  };
}

/** What resolving took, as a charge counts it (domain/billing/charge.ts); undefined without `entity_id`. */
export function resolutionTaken(resolution: EntityResolution | undefined): { credits: number; ids: number } | undefined {
  return resolution && { credits: resolution.credits, ids: resolution.resolved.length };
}

/**
 * A response with `resolved` placed where the spec lists it (before
 * `signal_threshold` and `history_days`), and what the resolution could not
 * read folded into `partial` and `coverage`.
 */
export function withResolved<T extends Completeness>(
  body: T,
  resolution: EntityResolution | undefined,
): T & { resolved?: ResolvedEntity[] } {
  if (resolution === undefined) return body;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === "history_days" || name === "signal_threshold") {
      if (!("resolved" in out)) out.resolved = resolution.resolved;
    }
    out[name] = value;
  }
  if (!("resolved" in out)) out.resolved = resolution.resolved;
  if (resolution.partitionsFailed.length > 0) {
    out.partial = true;
    if (body.coverage === "complete")
      out.coverage = completeness(resolution.partitionsFailed, resolution.partitionsRead).coverage;
  }
  return out as T & { resolved?: ResolvedEntity[] };
}
