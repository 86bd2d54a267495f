// A caller's value or name quoted in an error detail. Details quote a short
// prefix only: a 10,000-character value is never echoed back whole.

export const QUOTE_MAX_CHARS = 40;

/** `"value"` (JSON-quoted), cut to a short prefix with the full length said when longer. */
export function quoteValue(value: unknown): string {
  const text = jsonText(value);
  if (text === undefined) return "a value nested too deep to quote";
  return text.length <= QUOTE_MAX_CHARS + 2 ? text : `${text.slice(0, QUOTE_MAX_CHARS)}…" (${text.length - 2} characters)`;
}

/** A name as `'name'`, cut the same way. */
export function quoteName(name: string): string {
  return name.length <= QUOTE_MAX_CHARS ? `'${name}'` : `'${name.slice(0, QUOTE_MAX_CHARS)}…' (${name.length} characters)`;
}

/** A value nested deeper than JSON.stringify can recurse is described, not serialized: a refusal never fails on its own detail. */
function jsonText(value: unknown): string | undefined {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return undefined;
  }
}
