import type { Operation } from "./operation.js";

// Where else a name the called endpoint does not take is a parameter or a
// body field, from the endpoints served beside it: "`cursor` is taken by
// /search and /top-headlines" helps more than the nearest spelling here.

/** The served endpoints (other than `operation`) taking `name` in their query or body, as `/search (search_news)`; none when nowhere. */
export function endpointsTaking(name: string, operation: Operation, served: readonly Operation[]): string[] {
  return served
    .filter(
      (other) =>
        other !== operation &&
        !other.pathParams.includes(name) &&
        (Object.hasOwn(other.params.properties, name) ||
          (other.body !== undefined && Object.hasOwn(other.body.properties, name))),
    )
    .map(
      (other) =>
        `${other.method === "GET" ? "" : `${other.method} `}${other.path}${other.tool === undefined ? "" : ` (${other.tool})`}`,
    );
}

/** "a", "a and b", "a, b and c". */
export function inWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1] ?? ""}`;
}
