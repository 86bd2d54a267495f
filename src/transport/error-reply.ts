import type { FastifyBaseLogger, FastifyReply } from "fastify";
import { ApiError, internalErrorBody } from "../shared/api-error.js";

// The one place an HTTP reply (a REST route, or the /mcp endpoint before and
// around JSON-RPC) turns failures into the spec's JSON error body. transport/
// holds what both doors share, so http/ and mcp/ never import each other.

export function sendApiError(reply: FastifyReply, error: ApiError, headers: Record<string, string> = {}): FastifyReply {
  reply.headers(headers);
  if (error.retryAfterSecs !== undefined) reply.header("retry-after", String(error.retryAfterSecs));
  return reply.status(error.status).type("application/json; charset=utf-8").send(error.toBody());
}

/** Fastify's own errors (bad request framing, body limits) keep their status with our body; anything else is a logged 500. */
export function sendUnexpectedError(reply: FastifyReply, error: unknown, log: FastifyBaseLogger): FastifyReply {
  const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) : 500;
  if (status === 413)
    return sendApiError(reply, new ApiError("payload_too_large", "The request body is too large. Do not retry it as is."));
  if (status >= 400 && status < 500) {
    const message = error instanceof Error ? error.message : "Bad request";
    return sendApiError(reply, new ApiError("invalid_parameter", message));
  }
  log.error({ err: error }, "unhandled error");
  return reply.status(500).type("application/json; charset=utf-8").send(internalErrorBody());
}
