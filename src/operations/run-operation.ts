import { ApiError } from "../shared/api-error.js";
import type { Caller } from "../services/accounts/account-service.js";
import type { Hold } from "../services/accounts/credit-service.js";
import { withFeedGaps } from "../services/feed/feed-coverage.js";
import type { Operation, OperationDeps, PlannedCall } from "./operation.js";
import { validateBody, validateParams, type ParamsForm } from "./validate-params.js";

// Every call, whichever door it came in (REST or MCP), runs here, in the spec's
// order (section 5, rule 3): key, suspension, parameters, price, max_credits,
// monthly credits, this minute's credits; then run and charge what it took.
// Validation happens before any work and is never charged.

export interface CallInput {
  /** The API key as presented; undefined when none was sent. */
  key: string | undefined;
  /** Raw parameters: query-string values (string or string[]) or MCP arguments. */
  params: Record<string, unknown>;
  /** How the parameters arrive: query-string text (REST) or typed JSON values (MCP). */
  form: ParamsForm;
  /** The parsed JSON body (or MCP arguments naming body fields); undefined when none was sent. */
  body?: unknown;
}

export type CallOutcome =
  | { ok: true; body: Record<string, unknown>; credits_charged: number; headers: Record<string, string> }
  | { ok: false; error: ApiError; credits_charged: number; headers: Record<string, string> };

export type Refusal = Extract<CallOutcome, { ok: false }>;

export async function runOperation(operation: Operation, input: CallInput, deps: OperationDeps): Promise<CallOutcome> {
  const admitted = await admit(input.key, deps);
  if (!admitted.ok) return admitted.refusal;
  const { caller } = admitted;

  let planned: PlannedCall;
  let hold: Hold | undefined;
  let params: Record<string, unknown>;
  try {
    params = validateParams(operation, input.params, input.form);
    planned = operation.plan({ ...params, ...validateBody(operation, input.body) }, caller, deps);
    const maxCredits = params.max_credits as number | undefined;
    if (maxCredits !== undefined && planned.price.max > maxCredits) {
      throw new ApiError(
        "credit_budget_exceeded",
        `This call can cost up to ${planned.price.max} credits, more than max_credits=${maxCredits}. Nothing ran and nothing was charged.`,
        { credits: { min: planned.price.min, max: planned.price.max }, max_credits: maxCredits },
      );
    }
    if (params.estimate === true || operation.free) {
      await deps.credits.admitMessage(caller);
      const body =
        params.estimate === true
          ? { ...(await deps.credits.preview(caller, operation.name, planned.price)), ...planned.preview }
          : await planned.execute({ took: () => undefined });
      return { ok: true, body: withCharge(body, 0), credits_charged: 0, headers: await deps.credits.headers(caller) };
    }
    hold = await deps.credits.reserve(caller, planned.price);
  } catch (error) {
    if (error instanceof ApiError) return refuse(caller, error, deps);
    throw error;
  }

  let took: number | undefined;
  try {
    // A hole in the live feed inside the window makes an answer incomplete (services/feed/feed-coverage.ts).
    const body = await withFeedGaps(
      await planned.execute({ took: (credits) => (took = credits) }),
      params,
      deps.feedLedger,
      deps.clock.now(),
    );
    // What the call took, never above its estimate nor below its minimum.
    const charged = Math.min(planned.price.max, Math.max(planned.price.min, took ?? planned.price.max));
    return {
      ok: true,
      body: withCharge(body, charged),
      credits_charged: charged,
      headers: await deps.credits.settle(hold, charged),
    };
  } catch (error) {
    // A 404 is charged the operation's minimum; any other error nothing.
    const charged = error instanceof ApiError && error.code === "not_found" ? planned.price.min : 0;
    const headers = await deps.credits.settle(hold, charged);
    if (error instanceof ApiError) return { ok: false, error, credits_charged: charged, headers };
    throw error;
  }
}

/**
 * A request refused before any operation could take it (an unknown path, a
 * malformed URL, a malformed MCP argument): still the key first, then
 * suspension, then the refusal, answered and counted like any refused call.
 */
export async function refuseRequest(key: string | undefined, error: ApiError, deps: OperationDeps): Promise<Refusal> {
  const admitted = await admit(key, deps);
  return admitted.ok ? refuse(admitted.caller, error, deps) : admitted.refusal;
}

/**
 * The key, then suspension (spec section 5, rule 3). A missing or invalid key
 * is answered without credit headers, as no account is known; a suspended
 * tenant's 402 carries them, like every authenticated response.
 */
async function admit(
  key: string | undefined,
  deps: OperationDeps,
): Promise<{ ok: true; caller: Caller } | { ok: false; refusal: Refusal }> {
  let caller: Caller;
  try {
    caller = await deps.accounts.identify(key);
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, refusal: { ok: false, error, credits_charged: 0, headers: {} } };
    throw error;
  }
  try {
    deps.accounts.assertActive(caller);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, refusal: { ok: false, error, credits_charged: 0, headers: await deps.credits.headers(caller) } };
  }
  return { ok: true, caller };
}

/** A refused request takes a message token; past the message rate, the refusal becomes message_rate_limited. */
async function refuse(caller: Caller, error: ApiError, deps: OperationDeps): Promise<Refusal> {
  let answer = error;
  if (error.code !== "message_rate_limited") {
    try {
      await deps.credits.admitMessage(caller);
    } catch (limited) {
      if (!(limited instanceof ApiError)) throw limited;
      answer = limited;
    }
  }
  return { ok: false, error: answer, credits_charged: 0, headers: await deps.credits.headers(caller) };
}

/** Puts `credits_charged` just before `attribution`, where the spec lists it. */
function withCharge(body: object, charged: number): Record<string, unknown> {
  const { attribution, credits_charged: _previous, ...rest } = body as Record<string, unknown>;
  return attribution === undefined ? { ...rest, credits_charged: charged } : { ...rest, credits_charged: charged, attribution };
}
