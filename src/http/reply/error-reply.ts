import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { OperationDeps } from "../../app/operation.js";
import { refuseRequest } from "../../app/run-operation.js";
import { ApiError, internalErrorBody } from "../../shared/api-error.js";
import { upstreamFailure } from "../../shared/upstream-failure.js";
import { presentedKey } from "./api-key.js";

// The one place an HTTP reply (a REST route, the /mcp endpoint before and
// around JSON-RPC, the operator API) turns failures into the spec's JSON error
// body. http/reply/ holds what both doors share, so the REST door and http/mcp/
// never import each other.

export function sendApiError(reply: FastifyReply, error: ApiError, headers: Record<string, string> = {}): FastifyReply {
  reply.headers(headers);
  if (error.retryAfterSecs !== undefined) reply.header("retry-after", String(error.retryAfterSecs));
  return reply.status(error.status).type("application/json; charset=utf-8").send(error.toBody());
}

export interface ErrorRepliesOptions {
  /** What a body over the scope's limit is answered with (REST: 400 naming the limit; MCP: 413). */
  bodyTooLarge(limitBytes: number): ApiError;
  /**
   * When given, a refusal Fastify raises before the route (a body too large,
   * malformed JSON) is answered like a refused call: the key checked first,
   * then the credit headers every authenticated response carries.
   */
  deps?: OperationDeps;
}

/** A REST or operator body over the limit: the 400 family (413 is MCP's alone), naming the limit. */
export function restBodyTooLarge(limitBytes: number): ApiError {
  return new ApiError(
    "invalid_parameter",
    `The request body is larger than ${limitBytes} bytes (${Math.round(limitBytes / 1024)} KB), the most this endpoint reads. Nothing ran and nothing was charged; no field needs that much.`,
    { parameter: "body" },
  );
}

/** The error handler of one Fastify scope: REST (http/app.ts), MCP (http/mcp/register-mcp.ts) and the operator API alike. */
export function useErrorReplies(scope: FastifyInstance, options: ErrorRepliesOptions): void {
  scope.setErrorHandler(async (error, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    const upstream = upstreamFailure(error, request.log);
    if (upstream !== undefined) return sendApiError(reply, upstream);
    const refusal = frameworkRefusal(error, request, options);
    if (refusal === undefined) return sendUnexpectedError(reply, error, request.log);
    if (options.deps === undefined) return sendApiError(reply, refusal);
    const outcome = await refuseRequest(presentedKey(request.headers), refusal, options.deps);
    return sendApiError(reply, outcome.error, outcome.headers);
  });
}

/** Fastify's own 4xx (body limit, malformed JSON, a media type no parser takes) as the spec's error; undefined for anything else. */
function frameworkRefusal(error: unknown, request: FastifyRequest, options: ErrorRepliesOptions): ApiError | undefined {
  const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) : 500;
  if (status === 413) return options.bodyTooLarge(request.routeOptions.bodyLimit ?? 0);
  if (status >= 400 && status < 500) {
    return new ApiError("invalid_parameter", error instanceof Error ? error.message : "The request could not be read.");
  }
  return undefined;
}

/** A failure we did not foresee: logged, and a generic 500 (nothing internal leaks). */
function sendUnexpectedError(reply: FastifyReply, error: unknown, log: FastifyBaseLogger): FastifyReply {
  log.error({ err: error }, "unhandled error");
  return reply.status(500).type("application/json; charset=utf-8").send(internalErrorBody());
}
