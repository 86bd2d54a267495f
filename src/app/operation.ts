import { Type, type Static, type TObject, type TSchema } from "@sinclair/typebox";
import type { Price } from "../domain/pricing.js";
import { Params } from "../schemas/params.js";
import type { Embedder } from "../ports/embedder.js";
import type { SlotLedger } from "../ports/slot-ledger.js";
import type { IndexBackend } from "../ports/index-backend.js";
import type { StoryIndex } from "../ports/story-index.js";
import type { AccountService, Caller } from "../usecases/accounts/account-service.js";
import type { CreditService } from "../usecases/accounts/credit-service.js";
import type { Clock } from "../shared/clock.js";
import type { ApiError } from "../shared/api-error.js";
import type { WatchService } from "../usecases/watches/watch-service.js";
import type { Meter } from "../usecases/accounts/credit-service.js";

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
export type CreditMeter = Meter;

/** A validated call, priced before any work, ready to run. */
export interface PreparedCall {
  price: Price;
  /**
   * Runs the call; the body it returns gets `credits_charged` from the runner. A streamed operation's body is a
   * StreamedBody: what it took is settled before the stream is read, so the credit headers go with the response's.
   */
  execute(meter: CreditMeter): Promise<object>;
  /** Fields an `estimate=true` preview adds for this call (POST /watches: what its runs will cost). */
  preview?: Record<string, unknown>;
  /** The refusal the call would meet when run, beyond credits (POST /watches: the plan's watch cap), so a preview can say so. */
  refusal?(): Promise<ApiError | undefined>;
}

export type HttpMethod = "GET" | "POST" | "DELETE";

/** The body of a streamed operation (`stream` below): its lines (UTF-8, several to a chunk), read once, as the client takes them. */
export interface StreamedBody {
  lines: AsyncIterable<Uint8Array>;
  /**
   * Told of each chunk once it has been written out (nothing of it left queued in the process), so the memory it is
   * in may be filled again; a chunk never told of is left to the garbage collector.
   */
  written?(chunk: Uint8Array): void;
}

export function isStreamedBody(body: object): body is StreamedBody {
  return "lines" in body && typeof (body as { lines?: unknown }).lines === "object";
}

export interface Operation {
  /** Internal name, also the OpenAPI operationId. */
  name: string;
  /** MCP tool name (spec's tool list); undefined for an operation that is not a tool (a streamed one). */
  tool: string | undefined;
  /** The response is a stream of lines in this format rather than one JSON body; never an MCP tool. */
  stream?: "ndjson";
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
  /**
   * Cross-field rules and normalisation (400s), then the price. Gets parameters and body fields together. No index
   * work, except where the price is a count the index must give (an export): then only what pricing needs.
   */
  prepare(params: Record<string, unknown>, caller: Caller, deps: OperationDeps): PreparedCall | Promise<PreparedCall>;
}

/**
 * Declares an operation with its parameters and body fields typed from their
 * schemas (validation guarantees the shape at run time). Every operation, free
 * ones included (spec: "`estimate` and `max_credits` on every endpoint and
 * tool"), gets both here, so none can miss them; the runner handles both.
 */
export function defineOperation<S extends TObject, B extends TObject = TObject<{}>>(
  operation: Omit<Operation, "params" | "body" | "prepare" | "free" | "sideEffects" | "status"> & {
    params: S;
    body?: B;
    free?: boolean;
    sideEffects?: boolean;
    status?: 200 | 201;
    prepare(params: Static<S> & Static<B>, caller: Caller, deps: OperationDeps): PreparedCall | Promise<PreparedCall>;
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

/** What an operation's calls are counted under in the per-day usage counters: its REST route, `GET /search`. */
export function usageName(operation: Pick<Operation, "method" | "path">): string {
  return `${operation.method} ${operation.path}`;
}

/** The operations served as MCP tools: a tool result is one JSON value, never a stream. */
export function toolOperations(operations: readonly Operation[]): Array<Operation & { tool: string }> {
  return operations.filter((op): op is Operation & { tool: string } => op.tool !== undefined && op.stream === undefined);
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
