import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation, OperationDeps } from "../app/operation.js";
import { refuseRequest } from "../app/run-operation.js";
import { ApiError } from "../shared/api-error.js";
import { closestName } from "../shared/closest-name.js";
import { quoteName } from "../shared/quote.js";
import { presentedKey } from "./reply/api-key.js";
import { sendApiError } from "./reply/error-reply.js";

// Requests refused before any operation takes them: a path that names no
// endpoint, a URL that is not valid percent-encoding, a request head too
// large to read. Each gets the spec's error body (error, code, detail), and,
// where the head could be read, the key is checked first: without a key a
// non-public path is 401; with one the refusal carries the credit headers.

/** Answers a refusal after the key and suspension checks, like a refused call (a message token, no charge). */
export async function replyRefused(
  request: FastifyRequest,
  reply: FastifyReply,
  error: ApiError,
  deps: OperationDeps,
): Promise<FastifyReply> {
  const outcome = await refuseRequest(presentedKey(request.headers), error, deps);
  return sendApiError(reply, outcome.error, outcome.headers);
}

/**
 * A path that names no endpoint. Not `not_found`, which the spec keeps for id
 * endpoints as a cacheable statement that an id is absent: a mistyped path is
 * a malformed request, the 400 family (see /docs/agent-workflow.md).
 */
export function unknownRoute(request: FastifyRequest, operations: readonly Operation[]): ApiError {
  const path = request.url.split("?")[0] ?? "";
  const endpoints = operations.map((op) => `${op.method} ${op.path}`);
  const suggestion = closestName(`${request.method} ${path}`, endpoints);
  return new ApiError(
    "invalid_parameter",
    `There is no endpoint ${request.method} ${quoteName(path)}. Did you mean ${suggestion}? Endpoints: ${endpoints.join(", ")}; see /openapi.json.`,
    { parameter: "path", suggestion },
  );
}

/** Fastify's router refusals (a path that is not valid percent-encoded UTF-8, an overlong path segment). */
export function malformedPath(request: FastifyRequest): ApiError {
  const path = request.url.split("?")[0] ?? "";
  return new ApiError(
    "invalid_parameter",
    `The path ${quoteName(path)} cannot be read: it is not valid percent-encoded UTF-8, or a segment is too long. Percent-encode ids as UTF-8.`,
    { parameter: "path" },
  );
}

/** The most a request line and its headers may take (Node's default); beyond it nothing of the request is read. */
export const MAX_HEAD_BYTES = 16 * 1024;

/**
 * Node's parser refused the request before Fastify saw it (head too large,
 * malformed framing, a slow client). No header was read, so no key can be
 * checked: a too-large head is 400 `invalid_parameter`, a timeout 408.
 */
export function replyClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const timeout = error.code === "ERR_HTTP_REQUEST_TIMEOUT";
  const refusal = timeout
    ? new ApiError("request_timeout", "The request was not received in time. Nothing ran and nothing was charged.")
    : error.code === "HPE_HEADER_OVERFLOW"
      ? new ApiError(
          "invalid_parameter",
          `The request line and headers exceed ${MAX_HEAD_BYTES / 1024} KB, so none of it was read. Shorten the query string; no parameter needs that much.`,
        )
      : new ApiError("invalid_parameter", "The request is not valid HTTP/1.1, so none of it was read.");
  const body = JSON.stringify(refusal.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
