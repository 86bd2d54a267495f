import type { Caller } from "../../usecases/accounts/account-service.js";
import type { GraphScope } from "../../usecases/graph/graph-common.js";
import { openScope, type GraphBase } from "../requests/graph-params.js";
import type { OperationDeps, PreparedCall } from "../operation.js";

// What the four graph operations share once validated: the call runs in a
// scope of its own (the plan's window, a fresh query ledger) and is charged
// the index queries it issued (spec 02, "Graph credits"), plus any flat part.

export function runGraph(
  base: GraphBase,
  caller: Caller,
  deps: OperationDeps,
  run: (scope: GraphScope, nowMs: number) => Promise<{ body: object; flat?: number }>,
): PreparedCall["execute"] {
  return async (meter) => {
    const now = deps.clock.now();
    const scope = openScope(deps.index, base, caller.plan, now);
    const { body, flat = 0 } = await run(scope, now);
    meter.took(scope.ledger.spent + flat);
    return body;
  };
}
