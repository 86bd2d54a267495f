import type { IncomingHttpHeaders } from "node:http";

/** The key from `x-api-key` or `Authorization: Bearer`, which are equivalent (spec section 5, rule 1). */
export function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const header = headers["x-api-key"];
  const direct = Array.isArray(header) ? header[0] : header;
  if (direct) return direct.trim();
  const auth = headers.authorization;
  const match = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return match?.[1]?.trim() || undefined;
}
