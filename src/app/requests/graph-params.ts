import type { EntityRef } from "../../domain/entities/entity-key.js";
import type { Plan } from "../../domain/plans.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { GRAPH_SCOPE, ParamsOf } from "../../schemas/params.js";
import { ApiError } from "../../shared/api-error.js";
import { closestName } from "../../shared/closest-name.js";
import { parseEntityIds } from "../../usecases/entities/entity-ids.js";
import { applyPlanWindow } from "../../usecases/query-kernel/plan-window.js";
import { parseWindow } from "./search-params.js";
import { DEFAULT_EDGE_TYPES, EDGE_TYPES, type EdgeType } from "../../domain/graph.js";
import type { GraphScope, NarrowingFilters } from "../../usecases/graph/graph-common.js";
import { QueryLedger } from "../../usecases/graph/query-ledger.js";

// Cross-field rules of the graph endpoints, before any index work (a broken
// rule is a 400, never charged): one id where one is taken, the edge types,
// the window and the narrowing filters.

/** The window and narrowing filters every graph endpoint takes, as validated against GRAPH_SCOPE. */
export type GraphScopeParams = ParamsOf<typeof GRAPH_SCOPE>;

export interface GraphBase {
  window: { from?: string; to?: string };
  narrowing: NarrowingFilters;
}

export function graphBase(params: GraphScopeParams): GraphBase {
  const narrowing: NarrowingFilters = {};
  for (const name of ["language", "publisher_country", "source_type", "country"] as const) {
    const value = params[name]?.trim();
    if (value !== undefined && value !== "") narrowing[name] = value;
  }
  return { window: parseWindow(params.from, params.to), narrowing };
}

/** The scope a call runs in: the window as the plan clamps it, and a fresh query ledger. */
export function openScope(
  index: IndexBackend,
  base: GraphBase,
  plan: Plan,
  nowMs: number,
  ledger = new QueryLedger(),
): GraphScope {
  return { index, window: applyPlanWindow(plan, base.window.from, base.window.to, nowMs), narrowing: base.narrowing, ledger };
}

/** An id where exactly one is taken; several are `invalid_parameter`. */
export function oneEntity(parameter: string, given: string | readonly string[]): { given: string; ref: EntityRef } {
  const texts = (typeof given === "string" ? [given] : given).flatMap((v) => v.split(",")).map((t) => t.trim());
  if (texts.length !== 1) {
    throw new ApiError(
      "invalid_parameter",
      `'${parameter}' takes exactly one entity id; it names ${texts.length}. Ask once per id, or use /graph/exposures for what several have in common.`,
      { parameter },
    );
  }
  return { given: texts[0] as string, ref: parseEntityIds(texts[0] as string)[0] as EntityRef };
}

/** Several ids, each as given and parsed (`entity_id` on /graph/exposures). */
export function someEntities(given: string | readonly string[], least: number): Array<{ given: string; ref: EntityRef }> {
  const refs = parseEntityIds(given);
  const texts = (typeof given === "string" ? [given] : given).flatMap((v) => v.split(",")).map((t) => t.trim());
  if (refs.length < least) {
    throw new ApiError(
      "invalid_parameter",
      `'entity_id' names ${refs.length} distinct id${refs.length === 1 ? "" : "s"}; this endpoint compares ${least} to 5. Use /graph/related for one.`,
      { parameter: "entity_id" },
    );
  }
  // Each id as passed: the first text naming its group.
  return refs.map((ref) => ({ given: texts.find((t) => parseEntityIds(t)[0]?.id === ref.id) ?? ref.id, ref }));
}

/** `types`: a comma list of edge types, each once; the default when absent. */
export function edgeTypes(list: string | undefined): EdgeType[] {
  if (list === undefined) return [...DEFAULT_EDGE_TYPES];
  const types: EdgeType[] = [];
  for (const name of list.split(",").map((t) => t.trim().toLowerCase())) {
    if (name === "") continue;
    if (!(EDGE_TYPES as readonly string[]).includes(name)) {
      throw new ApiError(
        "invalid_parameter",
        `'types' names '${name.slice(0, 100)}', which is not an edge type. Did you mean '${closestName(name, EDGE_TYPES)}'? Types: ${EDGE_TYPES.join(", ")}.`,
        { parameter: "types" },
      );
    }
    if (!types.includes(name as EdgeType)) types.push(name as EdgeType);
  }
  if (types.length === 0)
    throw new ApiError("invalid_parameter", `'types' names no type: give some of ${EDGE_TYPES.join(", ")}.`, {
      parameter: "types",
    });
  return types;
}

/** `compare_from` and `compare_to` (/graph/network): both or neither; the compared window as a base of its own. */
export function comparedBase(
  base: GraphBase,
  compareFrom: string | undefined,
  compareTo: string | undefined,
): GraphBase | undefined {
  if (compareFrom === undefined && compareTo === undefined) return undefined;
  if (compareFrom === undefined || compareTo === undefined) {
    const missing = compareFrom === undefined ? "compare_from" : "compare_to";
    throw new ApiError(
      "invalid_parameter",
      `A comparison takes both 'compare_from' and 'compare_to'; '${missing}' is missing. Give the window to compare with, or neither.`,
      { parameter: missing },
    );
  }
  return { window: parseWindow(compareFrom, compareTo, { from: "compare_from", to: "compare_to" }), narrowing: base.narrowing };
}
