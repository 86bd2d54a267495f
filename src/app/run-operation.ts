import { ApiError } from "../shared/api-error.js";
import type { Caller } from "../usecases/accounts/account-service.js";
import type { Metered } from "../usecases/accounts/credit-service.js";
import { usageName, type Operation, type OperationDeps, type PreparedCall } from "./operation.js";
import { withFeedGaps } from "../usecases/feed/feed-coverage.js";
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
  /** The endpoints served beside this one: an unknown parameter's hint names those taking it. */
  served?: readonly Operation[];
}

export type CallOutcome =
  | { ok: true; body: Record<string, unknown>; credits_charged: number; headers: Record<string, string> }
  | { ok: false; error: ApiError; credits_charged: number; headers: Record<string, string> };

export type Refusal = Extract<CallOutcome, { ok: false }>;

export async function runOperation(operation: Operation, input: CallInput, deps: OperationDeps): Promise<CallOutcome> {
  const admitted = await admit(input.key, deps);
  if (!admitted.ok) return admitted.refusal;
  return runAsCaller(operation, admitted.caller, input, deps);
}

/**
 * A call on behalf of a tenant known without a key (the console's playground,
 * for its signed-in tenant): suspension, then the same validation, price,
 * budgets and charge as a keyed call. No key is checked: the caller comes from
 * a signed-in session, and its tenant is charged.
 */
export async function runOperationFor(
  operation: Operation,
  caller: Caller,
  input: Omit<CallInput, "key">,
  deps: OperationDeps,
): Promise<CallOutcome> {
  try {
    deps.accounts.assertActive(caller);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, error, credits_charged: 0, headers: await deps.credits.headers(caller) };
  }
  return runAsCaller(operation, caller, input, deps);
}

async function runAsCaller(
  operation: Operation,
  caller: Caller,
  input: Omit<CallInput, "key">,
  deps: OperationDeps,
): Promise<CallOutcome> {
  let prepared: PreparedCall;
  let params: Record<string, unknown>;
  try {
    params = validateParams(operation, input.params, input.form, input.served);
    prepared = await operation.prepare({ ...params, ...validateBody(operation, input.body, input.served) }, caller, deps);
    const maxCredits = params.max_credits as number | undefined;
    const overBudget =
      maxCredits !== undefined && prepared.price.max > maxCredits ? budgetRefusal(prepared, maxCredits) : undefined;
    // A preview answers with what the call would meet; `max_credits` refuses only a call that would run.
    if (overBudget !== undefined && params.estimate !== true) throw overBudget;
    if (params.estimate === true || operation.free) {
      await deps.credits.admitMessage(caller);
      const body =
        params.estimate === true
          ? await previewOf(operation, prepared, caller, deps, overBudget)
          : await prepared.execute({ took: () => undefined });
      await deps.credits.countFreeCall(caller, usageName(operation));
      return { ok: true, body: withCharge(body, 0), credits_charged: 0, headers: await deps.credits.headers(caller) };
    }
  } catch (error) {
    if (error instanceof ApiError) return refuse(caller, error, deps);
    throw error;
  }

  const { price } = prepared;
  let metered: Metered<object>;
  try {
    metered = await deps.credits.metered(
      caller,
      price,
      { as: "call", operation: usageName(operation) },
      // A hole in the live feed inside the window makes an answer incomplete (usecases/feed/feed-coverage.ts).
      async (meter) => withFeedGaps(await prepared.execute(meter), params, deps.feedLedger, deps.clock.now()),
      {
        // A 404 is charged the operation's minimum; any other error nothing.
        chargeOnError: (error) => (error instanceof ApiError && error.code === "not_found" ? price.min : 0),
      },
    );
  } catch (error) {
    // Refused by a budget before anything ran.
    if (error instanceof ApiError) return refuse(caller, error, deps);
    throw error;
  }
  const { charged, headers } = metered;
  if (metered.ok) return { ok: true, body: withCharge(metered.value, charged), credits_charged: charged, headers };
  if (metered.error instanceof ApiError) return { ok: false, error: metered.error, credits_charged: charged, headers };
  throw metered.error;
}

/**
 * A free request outside the operations (a keyed document): the key, then
 * suspension, then a message token, like a free call. Its credit headers, or
 * the refusal.
 */
export async function admitFreeRequest(
  key: string | undefined,
  deps: OperationDeps,
): Promise<{ ok: true; headers: Record<string, string> } | Refusal> {
  const admitted = await admit(key, deps);
  if (!admitted.ok) return admitted.refusal;
  try {
    await deps.credits.admitMessage(admitted.caller);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, error, credits_charged: 0, headers: await deps.credits.headers(admitted.caller) };
  }
  return { ok: true, headers: await deps.credits.headers(admitted.caller) };
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

/** The preview: the credit checks, the call's own fields, and a refusal the call would meet beyond credits. */
async function previewOf(
  operation: Operation,
  prepared: PreparedCall,
  caller: Caller,
  deps: OperationDeps,
  overBudget: ApiError | undefined,
): Promise<object> {
  const preview = await deps.credits.preview(caller, operation.name, prepared.price);
  // The budget is checked before the month's and the minute's credits (spec section 5, rule 3).
  const refusal = overBudget ?? (preview.would_run ? await prepared.refusal?.() : undefined);
  const verdict = refusal === undefined ? {} : { would_run: false, refusal: refusal.code, refusal_detail: refusal.detail };
  return { ...preview, ...prepared.preview, ...verdict };
}

/** `max_credits` below what the call can cost: refused before anything runs. */
function budgetRefusal(prepared: PreparedCall, maxCredits: number): ApiError {
  return new ApiError(
    "credit_budget_exceeded",
    `This call can cost up to ${prepared.price.max} credits, more than max_credits=${maxCredits}. Nothing ran and nothing was charged.`,
    { credits: { min: prepared.price.min, max: prepared.price.max }, max_credits: maxCredits },
  );
}

/** Puts `credits_charged` just before `attribution`, where the spec lists it. */
function withCharge(body: object, charged: number): Record<string, unknown> {
  const { attribution, credits_charged: _previous, ...rest } = body as Record<string, unknown>;
  return attribution === undefined ? { ...rest, credits_charged: charged } : { ...rest, credits_charged: charged, attribution };
}
