import { CANDIDATE_BATCH, CANDIDATE_LIMIT } from "./search-query.js";

// Credit prices (spec document 1 section 8; document 2 section 8) as one pure
// function of a validated call. A price is per call, whatever the number of
// monthly indexes it reads: a call across several is charged what the most
// expensive one needed, never the sum. It runs before any work and returns the range
// the call can cost, with a breakdown; the charge after running is what the
// call took, held within this range. Where the spec leaves a figure "not
// shown", the choice is made here once and served in /docs/completeness.md.

export interface CreditRange {
  min: number;
  max: number;
}

export interface PriceLine {
  item: string;
  credits: CreditRange;
}

export interface Price extends CreditRange {
  breakdown: PriceLine[];
}

export type RankingMode = "keyword" | "semantic" | "hybrid";

/** What a search-family call adds on top of its base price. */
export interface SearchExtras {
  /** Rows skipped by `offset`. */
  offset: number;
  /** `entity_id` values to resolve. */
  entityIds: number;
  /** A geographic (`near`, `bbox`) or amount (`amount_min`, `amount_max`) filter is present. */
  candidateFilter: boolean;
  /** `signal_percentile_min` was passed: one threshold pass. */
  percentilePass: boolean;
}

export type PricedCall =
  | ({ operation: "search"; mode: RankingMode | "recent"; cursor?: "first" | "later" } & SearchExtras)
  | ({ operation: "top_headlines"; cursor?: "first" | "later" } & SearchExtras)
  | ({ operation: "stories"; mode: RankingMode | "recent" } & SearchExtras)
  | { operation: "story" }
  | { operation: "doc" }
  | { operation: "similar" }
  | { operation: "entities" }
  | { operation: "aggregate"; entityIds: number; percentilePass: boolean }
  | { operation: "watch" }
  | { operation: "graph_related"; evidence: number }
  | { operation: "graph_path"; maxHops: 1 | 2; evidence: number }
  | { operation: "graph_network"; evidence: number; compare: boolean }
  | { operation: "graph_exposures"; entities: number }
  | { operation: "export"; rows: number; entityCredits: number }
  | { operation: "free" };

/** An export's price: 1 credit per 1,000 rows started, and 1 for an export with no rows (its count ran). */
export const EXPORT_ROWS_PER_CREDIT = 1000;

export function exportRowCredits(rows: number): number {
  return Math.max(1, Math.ceil(rows / EXPORT_ROWS_PER_CREDIT));
}

const RANKING: Record<RankingMode | "recent", number> = { recent: 1, keyword: 1, semantic: 2, hybrid: 3 };

/** Geographic and amount filters check candidates in batches of 500, up to 2,000. */
const CANDIDATE_BATCHES = { min: 1, max: CANDIDATE_LIMIT / CANDIDATE_BATCH };

/** Graph calls pay one credit per index query, at most 16 per call. */
export const GRAPH_QUERY_CAP = 16;

export function priceOf(call: PricedCall): Price {
  const lines: PriceLine[] = [];
  const add = (item: string, min: number, max = min): void => {
    if (max > 0) lines.push({ item, credits: { min, max } });
  };

  switch (call.operation) {
    case "search":
    case "top_headlines": {
      const mode = call.operation === "search" ? call.mode : "recent";
      if (call.cursor === "first") add("cursor page (first)", 1, 2);
      else if (call.cursor === "later") add("cursor page", 1, 3);
      else add(mode === "recent" ? "browse" : `${mode} ranking`, RANKING[mode]);
      addOffset(add, call.offset, 1000);
      addSearchExtras(add, call);
      break;
    }
    case "stories":
      add(call.mode === "recent" ? "stories" : `stories, ${call.mode} ranking`, RANKING[call.mode]);
      addOffset(add, call.offset, 100);
      addSearchExtras(add, call);
      break;
    case "story":
      add("story expansion", 2);
      break;
    case "doc":
      add("article", 1);
      break;
    case "similar":
      add("similar articles", 2);
      break;
    case "entities":
      // The second, whole-window pass runs only when the first grouped nothing.
      add("entity resolution", 1, 2);
      break;
    case "aggregate":
      add("aggregation", 1);
      addEntityIds(add, call.entityIds);
      if (call.percentilePass) add("percentile pass", 1);
      break;
    case "watch":
      add("watch operation", 1);
      break;
    // Graph calls (spec 02, "Graph credits"): 1 credit per index query the call issues, counted by the call as it
    // runs (usecases/graph/query-ledger.ts): 1 for indexed_through, 1 or 2 to resolve each id, 1 to count neighbours,
    // 2 for each edge that gets evidence; at most 16, and an edge the cap cannot afford goes without evidence.
    case "graph_related":
      // With no spelling in the window the neighbour count is skipped: 2.
      addGraph(add, 2, 4 + 2 * call.evidence);
      break;
    case "graph_path":
      // 3 when an end has no spelling in the window (indexed_through and both lookups); the spec's ranges above that.
      if (call.maxHops === 1) addGraph(add, 3, 8);
      else addGraph(add, 3, call.evidence === 0 ? 9 : GRAPH_QUERY_CAP);
      break;
    case "graph_network":
      addGraph(add, 2, 4 + 2 * call.evidence);
      // The second pass (the compared window: its lookup and its neighbour count) is a flat 3, beside the cap.
      if (call.compare) add("network comparison", 3);
      break;
    case "graph_exposures":
      // indexed_through, 1 or 2 per id, then the shared articles and their stories and sources (skipped when an id
      // has no spelling in the window).
      addGraph(add, 1 + call.entities, 3 + 2 * call.entities);
      break;
    case "export":
      // Exact before streaming: the rows are counted, and each entity_id was resolved, when the call was priced.
      add(`export of ${call.rows} rows`, exportRowCredits(call.rows));
      if (call.entityCredits > 0) add("resolving entity_id", call.entityCredits);
      break;
    case "free":
      break;
  }
  return {
    min: lines.reduce((sum, line) => sum + line.credits.min, 0),
    max: lines.reduce((sum, line) => sum + line.credits.max, 0),
    breakdown: lines,
  };
}

type Add = (item: string, min: number, max?: number) => void;

/** 1 credit per full `per` rows skipped: 1,000 on /search and /top-headlines, 100 on /stories. */
function addOffset(add: Add, offset: number, per: number): void {
  const units = Math.floor(offset / per);
  if (units > 0) add(`offset ${offset}`, units);
}

function addEntityIds(add: Add, count: number): void {
  if (count > 0) add(`resolving ${count} entity_id`, count, 2 * count);
}

function addSearchExtras(add: Add, extras: SearchExtras): void {
  addEntityIds(add, extras.entityIds);
  if (extras.candidateFilter) {
    add("candidate batches", CANDIDATE_BATCHES.min, CANDIDATE_BATCHES.max);
    add("derived-field check", 1);
  }
  if (extras.percentilePass) add("signal_percentile_min threshold pass", 1);
}

function addGraph(add: Add, min: number, max: number): void {
  add("graph index queries", Math.min(min, GRAPH_QUERY_CAP), Math.min(max, GRAPH_QUERY_CAP));
}

/**
 * What a call with a geographic or amount filter took: its price's minimum
 * (one batch) plus each further batch the most expensive monthly index checked.
 */
export function candidateCharge(price: CreditRange, batches: number): number {
  return price.min + extraCandidateBatches(batches);
}

/** Batches checked beyond the one a price's minimum counts, up to the last the range allows. */
export function extraCandidateBatches(batches: number): number {
  return Math.max(0, Math.min(batches, CANDIDATE_BATCHES.max) - CANDIDATE_BATCHES.min);
}
