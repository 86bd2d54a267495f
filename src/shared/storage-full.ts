import { ApiError } from "./api-error.js";

// A full disk under the control store (SQLite's SQLITE_FULL, the OS's ENOSPC,
// PostgreSQL's disk_full) is not a bug in the call: it is 503, retryable, with
// nothing charged (the charge is the write that failed). It is logged once per
// episode, not once per call: a full disk fails every call until it is freed.

/** SQLITE_FULL (better-sqlite3), ENOSPC (Node), 53100 disk_full (PostgreSQL). */
const STORAGE_FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "53100"]);

/** Seconds a client should wait before retrying; freeing disk space is an operator's task. */
export const STORAGE_FULL_RETRY_SECS = 30;

/** How long after one log line the next occurrence is logged again, with the count in between. */
const RELOG_AFTER_MS = 10 * 60_000;

export function isStorageFull(error: unknown): boolean {
  if (typeof error !== "object" || error === null || !("code" in error)) return false;
  return typeof error.code === "string" && STORAGE_FULL_CODES.has(error.code);
}

export function storageFullError(): ApiError {
  return new ApiError(
    "upstream_unavailable",
    "The server's storage is full, so the call could not be recorded. Nothing ran and nothing was charged; this is not a statement about the index. Retry later.",
    {},
    STORAGE_FULL_RETRY_SECS,
  );
}

interface ErrorLog {
  error(details: object, message: string): void;
}

let loggedAt: number | undefined;
let unlogged = 0;

/** Logs a full-disk failure the first time, then once per RELOG_AFTER_MS with the count since. */
export function logStorageFull(log: ErrorLog, error: unknown, now = Date.now()): void {
  if (loggedAt !== undefined && now - loggedAt < RELOG_AFTER_MS) {
    unlogged++;
    return;
  }
  log.error({ err: error, since_last_log: unlogged }, "storage full: calls answer 503 until space is freed");
  loggedAt = now;
  unlogged = 0;
}
