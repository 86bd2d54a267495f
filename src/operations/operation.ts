import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import type { Price } from "../domain/pricing.js";
import { Params } from "../schemas/params.js";
import type { Embedder } from "../ports/embedder.js";
import type { SlotLedger } from "../ports/slot-ledger.js";
import type { IndexBackend } from "../ports/index-backend.js";
import type { StoryIndex } from "../ports/story-index.js";
import type { AccountService, Caller } from "../services/accounts/account-service.js";
import type { CreditService } from "../services/accounts/credit-service.js";
import type { Clock } from "../shared/clock.js";
import type { WatchService } from "../services/watches/watch-service.js";

// One descriptor per endpoint. REST routes, the OpenAPI document and MCP tools
// are generated from these; run-operation.ts runs every call the same way.

export interface OperationDeps {
  index: IndexBackend;
  stories: StoryIndex;
  accounts: AccountService;
  credits: CreditService;
  clock: Clock;
  /** Watches (spec 02); undefined on a server that keeps no watch store, where watch calls answer `unsupported`. */
  watches: WatchService | undefined;
  /** Embeds the query of a semantic or hybrid search. */
  embedder: Embedder;
  /** The live feed's slot ledger: answers whose window holds a slot the index lacks say so. */
  feedLedger?: SlotLedger;
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
  /** Fields an `estimate=true` preview adds for this call (POST /watches: what its runs will cost). */
  preview?: Record<string, unknown>;
}

export type HttpMethod = "GET" | "POST" | "DELETE";

export interface Operation {
  /** Internal name, also the OpenAPI operationId. */
  name: string;
  /** MCP tool name (spec's tool list). */
  tool: string;
  method: HttpMethod;
  /** REST path, OpenAPI style: `/doc/{id}`. */
  path: string;
  /** Parameters carried in the path rather than the query string. */
  pathParams: readonly string[];
  summary: string;
  description: string;
  /** Every parameter, declared once (query and path), including `estimate` and `max_credits`. */
  params: TObject;
  /** The JSON body's fields (a POST's), declared in schemas/params.ts like parameters; none when undefined. */
  body: TObject | undefined;
  /** True when a call changes state (creates or deletes): never a GET, never read-only for MCP clients. */
  sideEffects: boolean;
  /** The status of a success: 201 when the call creates something. */
  status: 200 | 201;
  /** Free calls (price 0) use a message token instead of credits; they take `estimate`/`max_credits` too and preview at 0. */
  free: boolean;
  response: TSchema;
  /** Cross-field rules and normalisation (400s), then the price; no index work. Gets parameters and body fields together. */
  plan(params: Record<string, unknown>, caller: Caller, deps: OperationDeps): PlannedCall;
}

/**
 * Declares an operation with its parameters and body fields typed from their
 * schemas (validation guarantees the shape at run time). Every operation, free
 * ones included (spec: "`estimate` and `max_credits` on every endpoint and
 * tool"), gets both here, so none can miss them; the runner handles both.
 */
export function defineOperation<S extends TObject, B extends TObject = TObject<{}>>(
  operation: Omit<Operation, "params" | "body" | "plan" | "free" | "sideEffects" | "status"> & {
    params: S;
    body?: B;
    free?: boolean;
    sideEffects?: boolean;
    status?: 200 | 201;
    plan(params: Static<S> & Static<B>, caller: Caller, deps: OperationDeps): PlannedCall;
  },
): Operation {
  const free = operation.free ?? false;
  const params = Type.Object(
    {
      ...operation.params.properties,
      estimate: Type.Optional(Params.estimate),
      max_credits: Type.Optional(Params.max_credits),
    },
    { additionalProperties: false },
  );
  const sideEffects = operation.sideEffects ?? false;
  checkShape(operation.name, operation.method, params, operation.body, sideEffects);
  return {
    ...(operation as unknown as Operation),
    free,
    params,
    body: operation.body,
    sideEffects,
    status: operation.status ?? 200,
  };
}

/** Mistakes a declaration can make, refused when the registry loads rather than found by a client. */
function checkShape(name: string, method: HttpMethod, params: TObject, body: TObject | undefined, sideEffects: boolean): void {
  if (method === "GET" && sideEffects) throw new Error(`operation ${name}: a GET has no side effects`);
  if (body === undefined) return;
  if (method !== "POST") throw new Error(`operation ${name}: only a POST takes a body`);
  // One name space: MCP tool arguments merge path, query and body fields.
  const shared = Object.keys(body.properties).filter((field) => Object.hasOwn(params.properties, field));
  if (shared.length > 0) throw new Error(`operation ${name}: ${shared.join(", ")} both a parameter and a body field`);
}
