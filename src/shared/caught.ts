// What a catch block needs to name the case it handles, or to say what it
// dropped where no logger reaches (an adapter's thread, a store's commit).

/** True when `error` is a Node system error with one of these codes (ENOENT: the file is gone). */
export function hasCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && "code" in error && codes.includes(String(error.code));
}

const warned = new Set<string>();

/**
 * A failure a caller recovers from (a fallback answers), said once per distinct message on the process's warning
 * channel (stderr), so an operator sees a damaged file or a failing thread without a message per call.
 */
export function warnRecovered(what: string, error: unknown): void {
  const message = `${what}: ${error instanceof Error ? error.message : String(error)}`;
  if (warned.has(message)) return;
  warned.add(message);
  process.emitWarning(message, { code: "NEWSINDEX_RECOVERED" });
}
