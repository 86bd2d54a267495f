import type { Static, TObject, TSchema } from "@sinclair/typebox";
import type { Price } from "../domain/pricing.js";
import type { IndexBackend } from "../ports/index-backend.js";
import type { AccountService, Caller } from "../services/accounts/account-service.js";
import type { Clock } from "../shared/clock.js";

// One descriptor per endpoint. REST routes, the OpenAPI document and MCP tools
// are generated from these; run-operation.ts runs every call the same way.

export interface OperationDeps {
  index: IndexBackend;
  accounts: AccountService;
  clock: Clock;
}

/** A validated call, priced before any work, ready to run. */
export interface PlannedCall {
  price: Price;
  /** Runs the call; the body it returns gets `credits_charged` from the runner. */
  execute(): Promise<object>;
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
  /** Every parameter, declared once (query and path). */
  params: TObject;
  response: TSchema;
  /** Cross-field rules and normalisation (400s), then the price; no index work. */
  plan(params: Record<string, unknown>, caller: Caller, deps: OperationDeps): PlannedCall;
}

/** Declares an operation with its parameters typed from the schema; validation guarantees the shape at run time. */
export function defineOperation<S extends TObject>(
  operation: Omit<Operation, "params" | "plan"> & {
    params: S;
    plan(params: Static<S>, caller: Caller, deps: OperationDeps): PlannedCall;
  },
): Operation {
  return operation as unknown as Operation;
}
