// The URL as the request log writes it. Keys travel in headers, which are
// never logged; but a client may put one in the query string or the path
// (`?api_key=nk_…`, `/doc/nk_…`), and that line must not carry it either.

/** API keys as issued (`nk_` and 43 base64url characters), also percent-encoded. */
const KEY_LIKE = /nk(?:_|%5f)[A-Za-z0-9_%-]{8,}/gi;
/** Query parameters named like a credential: their value is dropped whatever it is. */
const SECRET_NAME = /key|token|secret|auth|password|bearer/i;

export const REDACTED = "[redacted]";

/** The URL with every credential-like value replaced; `secrets` are further literals (the operator token). */
export function redactedUrl(url: string, secrets: readonly string[] = []): string {
  const queryAt = url.indexOf("?");
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const query =
    queryAt === -1
      ? ""
      : `?${url
          .slice(queryAt + 1)
          .split("&")
          .map((pair) => {
            const eq = pair.indexOf("=");
            return eq !== -1 && SECRET_NAME.test(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
          })
          .join("&")}`;
  let line = (path + query).replace(KEY_LIKE, REDACTED);
  for (const secret of secrets) {
    if (secret.length > 0) {
      line = line.split(secret).join(REDACTED).split(encodeURIComponent(secret)).join(REDACTED);
    }
  }
  return line;
}
