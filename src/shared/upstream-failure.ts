import type { ApiError } from "./api-error.js";
import { isStorageFull, logStorageFull, storageFullError } from "./storage-full.js";
import { isStoreUnreachable, storeUnreachableError } from "./store-unreachable.js";

// Failures of what a call stands on rather than of the call: a full disk under
// the control store, or the control store out of reach. Both doors (REST and
// MCP) answer them alike, as 503 `upstream_unavailable` with nothing charged,
// and log them here.

interface FailureLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The ApiError an upstream failure is answered with (logged), or undefined for any other error. */
export function upstreamFailure(error: unknown, log: FailureLog): ApiError | undefined {
  if (isStorageFull(error)) {
    logStorageFull(log, error);
    return storageFullError();
  }
  if (isStoreUnreachable(error)) {
    log.warn({ err: error }, "control store unreachable: answered 503");
    return storeUnreachableError();
  }
  return undefined;
}
