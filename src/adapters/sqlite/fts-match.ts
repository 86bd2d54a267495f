import type { Clause, KeywordQuery } from "../../domain/keyword-query.js";

// Compiles the engine-neutral keyword query to an FTS5 MATCH expression. Every
// word is quoted, so nothing the user types is read as FTS5 syntax.

export function toFtsMatch(query: KeywordQuery): string {
  const positive = query.must.map(clause).join(" AND ");
  return query.mustNot.reduce((expr, c) => `${expr} NOT ${clause(c)}`, positive);
}

/** The phrases a match is scored on, each as an FTS5 expression of its own (those under NOT score nothing). */
export function scoredPhrases(query: KeywordQuery): string[] {
  return [...new Set(query.must.flatMap((c) => c.anyOf.map(phrase)))];
}

function clause(c: Clause): string {
  return `(${c.anyOf.map(phrase).join(" OR ")})`;
}

function phrase(words: readonly string[]): string {
  return `"${words.map((w) => w.replaceAll('"', '""')).join(" ")}"`;
}
