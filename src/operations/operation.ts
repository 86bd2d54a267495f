import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import type { Price } from "../domain/pricing.js";
import { Params } from "../schemas/params.js";
import type { IndexBackend } from "../ports/index-backend.js";
import type { StoryIndex } from "../ports/story-index.js";
import type { AccountService, Caller } from "../services/accounts/account-service.js";
import type { CreditService } from "../services/accounts/credit-service.js";
import type { Clock } from "../shared/clock.js";

// One descriptor per endpoint. REST routes, the OpenAPI document and MCP tools
// are generated from these; run-operation.ts runs every call the same way.

export interface OperationDeps {
  index: IndexBackend;
  stories: StoryIndex;
  accounts: AccountService;
  credits: CreditService;
  clock: Clock;
}

/** How a running call reports what it took, when its price is a range. */
export interface CreditMeter {
  /** The credits the call took; held within its price's range. Not calling it charges the worst case. */
  took(credits: number): void;
}

/** A validated call, priced before any work, ready to run. */
export interface PlannedCall {
  price: Price;
  /** Runs the call; the body it returns gets `credits_charged` from the runner. */
  execute(meter: CreditMeter): Promise<object>;
}

export interface Operation {
  /** Internal name, also the OpenAPI operationId. */
  name: string;
  /** MCP tool name (spec's tool list). */
  tool: string;
  method: "GET";
  /** REST path, OpenAPI style: `/doc/{id}`. */
  path: string;
  /** Parameters carried in the path rather than the query string. */
  pathParams: readonly string[];
  summary: string;
  description: string;
  /** Every parameter, declared once (query and path), including `estimate` and `max_credits` on priced operations. */
  params: TObject;
  /** Free calls (price 0) use a message token instead of credits and take no `estimate`/`max_credits`. */
  free: boolean;
  response: TSchema;
  /** Cross-field rules and normalisation (400s), then the price; no index work. */
  plan(params: Record<string, unknown>, caller: Caller, deps: OperationDeps): PlannedCall;
}

/**
 * Declares an operation with its parameters typed from the schema (validation
 * guarantees the shape at run time). Every priced operation gets `estimate` and
 * `max_credits` here, so none can miss them; the runner handles both.
 */
export function defineOperation<S extends TObject>(
  operation: Omit<Operation, "params" | "plan" | "free"> & {
    params: S;
    free?: boolean;
    plan(params: Static<S>, caller: Caller, deps: OperationDeps): PlannedCall;
  },
): Operation {
  const free = operation.free ?? false;
  const params = free
    ? operation.params
    : Type.Object(
        {
          ...operation.params.properties,
          estimate: Type.Optional(Params.estimate),
          max_credits: Type.Optional(Params.max_credits),
        },
        { additionalProperties: false },
      );
  return { ...(operation as unknown as Operation), free, params };
}
