// A caller's value or name quoted in an error detail. Details quote a short
// prefix only: a 10,000-character value is never echoed back whole.

export const QUOTE_MAX_CHARS = 40;

/** `"value"` (JSON-quoted), cut to a short prefix with the full length said when longer. */
export function quoteValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= QUOTE_MAX_CHARS + 2 ? text : `${text.slice(0, QUOTE_MAX_CHARS)}…" (${text.length - 2} characters)`;
}

/** A name as `'name'`, cut the same way. */
export function quoteName(name: string): string {
  return name.length <= QUOTE_MAX_CHARS ? `'${name}'` : `'${name.slice(0, QUOTE_MAX_CHARS)}…' (${name.length} characters)`;
}
