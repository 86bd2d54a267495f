import type { Clause, KeywordQuery } from "../../domain/keyword-query.js";

// Compiles the engine-neutral keyword query to an FTS5 MATCH expression. Every
// word is quoted, so nothing the user types is read as FTS5 syntax.

export function toFtsMatch(query: KeywordQuery): string {
  const positive = query.must.map(clause).join(" AND ");
  return query.mustNot.reduce((expr, c) => `${expr} NOT ${clause(c)}`, positive);
}

function clause(c: Clause): string {
  return `(${c.anyOf.map((phrase) => `"${phrase.map((w) => w.replaceAll('"', '""')).join(" ")}"`).join(" OR ")})`;
}
