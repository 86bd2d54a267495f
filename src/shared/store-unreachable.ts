import { ApiError } from "./api-error.js";

// The control store (PostgreSQL in the scaled shape) out of reach: refused,
// reset, restarting, or a connection cut under a query. Not a bug in the call:
// 503 `upstream_unavailable`, retryable, with nothing charged (the charge is a
// write that did not happen). The pool reconnects by itself once the server is
// back, so the replica recovers without a restart.

/** Node's socket errors, and PostgreSQL's class 08 (connection exception) and 57P01-57P03 (shutdown, restarting). */
const UNREACHABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** node-postgres reports a connection lost under a query by message only. */
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
];

/** Seconds a client should wait: a restart or failover takes a few. */
export const STORE_UNREACHABLE_RETRY_SECS = 5;

export function isStoreUnreachable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ("code" in error && typeof error.code === "string" && UNREACHABLE_CODES.has(error.code)) return true;
  return error instanceof Error && UNREACHABLE_MESSAGES.some((m) => m.test(error.message));
}

export function storeUnreachableError(): ApiError {
  return new ApiError(
    "upstream_unavailable",
    "The service's account store could not be reached, so the call was not run. Nothing was charged; this is not a statement about the index. Retry with backoff.",
    {},
    STORE_UNREACHABLE_RETRY_SECS,
  );
}
