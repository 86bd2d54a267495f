import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Params } from "../../../schemas/params.js";
import { packSignalClauses, SignalClauses } from "../../../schemas/signal-clauses.js";
import type { SavedQuery } from "../../../ports/watch-store.js";
import type { Caller } from "../../../usecases/accounts/account-service.js";
import { listStoriesOperation } from "../list-stories.js";
import type { OperationDeps, PreparedCall } from "../../operation.js";
import { validateParams } from "../../validate-params.js";

// A watch's query is a /stories query (spec 02, POST /watches): its fields are
// the /stories parameter declarations themselves, less those that are not
// part of a watch, so a parameter /stories gains is a watch field at once with
// all its rules. Saved as query-string values, it is run through the very
// /stories operation (validation, cross-field rules, price and execution).

/** /stories parameters a watch does not take (rule 1), and the call options every operation has. */
const NOT_IN_A_WATCH = new Set(["from", "to", "offset", "limit", "sort", "signal_percentile_min", "estimate", "max_credits"]);

const STORY_FIELDS = listStoriesOperation.params.properties as Record<string, TSchema>;

export const WATCH_QUERY_FIELDS: Record<string, TSchema> = Object.fromEntries(
  Object.entries(STORY_FIELDS)
    .filter(([name]) => !NOT_IN_A_WATCH.has(name))
    // In a JSON body `signals` may also be the array of {name, min, max} (spec 02, POST /watches).
    .map(([name, schema]) => [
      name,
      name === "signals"
        ? Type.Optional(Type.Union([Params.signals, SignalClauses], { description: Params.signals.description }))
        : schema,
    ]),
);

/** Typed body values of the query fields, as query-string values. */
export function toSavedQuery(values: Record<string, unknown>): SavedQuery {
  const query: SavedQuery = {};
  for (const name of Object.keys(WATCH_QUERY_FIELDS)) {
    const value = values[name];
    if (value === undefined) continue;
    if (name === "signals" && Array.isArray(value)) query[name] = packSignalClauses(value as Static<typeof SignalClauses>);
    else query[name] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return query;
}

/** Newest stories first over a window, the stories a run reads (spec 02, section 6, rule 1). */
export interface RunWindow {
  from: string;
  to: string;
  limit: number;
}

/**
 * A saved query as a /stories call: checked by the /stories declarations and
 * cross-field rules (a 400 here is the same 400 /stories gives) and priced.
 * Without a window, the call a run of this query is priced at.
 */
export function planStoriesCall(
  query: SavedQuery,
  window: RunWindow | undefined,
  caller: Caller,
  deps: OperationDeps,
): PreparedCall {
  const raw: Record<string, unknown> = { ...query, sort: "recency" };
  if (window !== undefined) Object.assign(raw, { from: window.from, to: window.to, limit: String(window.limit) });
  const params = validateParams(listStoriesOperation, raw, "query");
  const prepared = listStoriesOperation.prepare(params, caller, deps);
  // /stories is priced without reading the index (only an export's price is a count), so its preparation is synchronous.
  if (prepared instanceof Promise) throw new Error("a /stories call is priced without reading the index");
  return prepared;
}
