import { ApiError } from "../shared/api-error.js";
import type { Caller } from "../services/accounts/account-service.js";
import type { Operation, OperationDeps, PlannedCall } from "./operation.js";
import { validateParams } from "./validate-params.js";

// Every priced call, whichever door it came in (REST or MCP), runs here, in the
// spec's order (section 5, rule 3): key, suspension, parameters, price, budgets,
// run, charge. Validation happens before any work and is never charged.

export interface CallInput {
  /** The API key as presented; undefined when none was sent. */
  key: string | undefined;
  /** Raw parameters: query-string values (string or string[]) or MCP arguments. */
  params: Record<string, unknown>;
}

export type CallOutcome =
  | { ok: true; body: Record<string, unknown>; credits_charged: number; headers: Record<string, string> }
  | { ok: false; error: ApiError; headers: Record<string, string> };

export async function runOperation(operation: Operation, input: CallInput, deps: OperationDeps): Promise<CallOutcome> {
  let caller: Caller;
  try {
    caller = await deps.accounts.authenticate(input.key);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, error, headers: {} };
    throw error;
  }

  let planned: PlannedCall | undefined;
  try {
    const params = validateParams(operation, input.params);
    planned = operation.plan(params, caller, deps);
    let took: number | undefined;
    const body = await planned.execute({ took: (credits) => (took = credits) });
    // What the call took, never above its estimate nor below its minimum.
    const charged = Math.min(planned.price.max, Math.max(planned.price.min, took ?? planned.price.max));
    const headers = await deps.accounts.charge(caller, charged);
    return { ok: true, body: withCharge(body, charged), credits_charged: charged, headers };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A 404 is charged the operation's minimum; every other refusal or error nothing.
    const charged = error.code === "not_found" && planned ? planned.price.min : 0;
    const headers = await deps.accounts.charge(caller, charged);
    return { ok: false, error, headers };
  }
}

/** Puts `credits_charged` just before `attribution`, where the spec lists it. */
function withCharge(body: object, charged: number): Record<string, unknown> {
  const { attribution, ...rest } = body as Record<string, unknown>;
  return attribution === undefined ? { ...rest, credits_charged: charged } : { ...rest, credits_charged: charged, attribution };
}
