import { COLUMN_FIELDS } from "./partition-schema.js";

// SQL conditions of a query inside one monthly index: the window, the filters
// (a column comparison for the single-valued fields when the article row is
// read anyway, else a probe of `postings`), and where a browse resumes.

/** A filter value as this index knows it: one term, or an entity id's group of spellings (`ids`), any of which matches. */
export interface ResolvedTerm {
  id: number;
  /** Every term of an entity id's group when it has more than one here; an article may carry several of them. */
  ids?: number[];
  /** Articles in this index carrying it (for a group, the sum over its terms: an upper bound). */
  docs: number;
  /** The filter field, and its folded value (for a column comparison). */
  field: string;
  key: string;
}

/** A query compiled for this index: what to match, with filters already resolved to term ids. */
export interface PartitionSearch {
  /** FTS5 MATCH expression; absent on a browse. */
  match?: string;
  /** Filter terms, rarest first. */
  terms: ResolvedTerm[];
  /** Bounds on signal intensities (signal_values); each signal's term is among `terms`. */
  ranges: SignalBounds[];
  /** Articles in this index, and its newest published_at, when the query started. */
  articles: number;
  newest: string;
  /** Window bounds, only where they cut into this index. */
  from?: string;
  to?: string;
}

/** A signal range as this index stores it: the signals-v1 code and inclusive bounds. */
export interface SignalBounds {
  code: number;
  min?: number;
  max?: number;
}

/** Every article of the index matches: no keywords, no filter, no window cutting into it. */
export function matchesWholeIndex(search: PartitionSearch): boolean {
  return (
    search.match === undefined &&
    search.terms.length === 0 &&
    search.ranges.length === 0 &&
    search.from === undefined &&
    search.to === undefined
  );
}

/** Where a browse resumes: strictly after (published_at, id), or strictly before a timestamp. */
export type Keyset = { published_at: string; id: string } | { before: string };

export type Params = Record<string, string | number>;

export interface ConditionOptions {
  keyset?: Keyset | undefined;
  /** Index of the term whose postings drive the query (no condition needed for it). */
  driver?: number;
  /** No `a` row is joined: only postings probes on `d.article` can be used. */
  postingsOnly?: boolean;
}

const COLUMNS: ReadonlySet<string> = new Set(COLUMN_FIELDS);

export function conditions(search: PartitionSearch, params: Params, options: ConditionOptions = {}): string[] {
  const where: string[] = [];
  const article = options.postingsOnly ? "d.article" : "a.rowid";
  search.terms.forEach((term, i) => {
    if (i === options.driver) {
      params[`t${i}`] = term.ids ? JSON.stringify(term.ids) : term.id;
    } else if (term.ids) {
      where.push(
        `EXISTS (SELECT 1 FROM postings p WHERE p.term IN (SELECT value FROM json_each(@t${i})) AND p.article = ${article})`,
      );
      params[`t${i}`] = JSON.stringify(term.ids);
    } else if (COLUMNS.has(term.field) && !options.postingsOnly) {
      where.push(`a.${term.field} = @t${i}`);
      params[`t${i}`] = term.key;
    } else {
      where.push(`EXISTS (SELECT 1 FROM postings p WHERE p.term = @t${i} AND p.article = ${article})`);
      params[`t${i}`] = term.id;
    }
  });
  search.ranges.forEach((range, i) => {
    const bounds = [`s.signal = @sc${i}`];
    params[`sc${i}`] = range.code;
    if (range.min !== undefined) {
      bounds.push(`s.value >= @smin${i}`);
      params[`smin${i}`] = range.min;
    }
    if (range.max !== undefined) {
      bounds.push(`s.value <= @smax${i}`);
      params[`smax${i}`] = range.max;
    }
    where.push(`EXISTS (SELECT 1 FROM signal_values s WHERE s.article = ${article} AND ${bounds.join(" AND ")})`);
  });
  if (search.from !== undefined) {
    where.push("a.published_at >= @from");
    params.from = search.from;
  }
  if (search.to !== undefined) {
    where.push("a.published_at <= @to");
    params.to = search.to;
  }
  const keyset = options.keyset;
  if (keyset !== undefined) {
    if ("before" in keyset) {
      where.push("a.published_at < @kp");
      params.kp = keyset.before;
    } else {
      where.push("(a.published_at, a.id) < (@kp, @ki)");
      params.kp = keyset.published_at;
      params.ki = keyset.id;
    }
  }
  return where;
}

export function and(where: readonly string[]): string {
  return where.length > 0 ? ` AND ${where.join(" AND ")}` : "";
}

export function whereClause(where: readonly string[]): string {
  return where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
}

/**
 * SQL reading `columns` of every match in an index (`a` is the article row). With `probeFirst`, a query driven by
 * a term's postings checks its other terms in the postings before reading an article row, so only the matches'
 * rows are read (two entities together: the rows they share, not every row of the rarer one); a single-valued
 * field is then probed in the postings rather than compared on the row.
 */
export function matchSet(
  search: PartitionSearch,
  params: Params,
  columns: string,
  options: { probeFirst?: boolean } = {},
): string {
  if (search.match !== undefined) {
    params.match = search.match;
    const where = conditions(search, params);
    return `SELECT ${columns} FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid WHERE articles_fts MATCH @match${and(where)}`;
  }
  if (search.terms.length > 0) {
    const where = conditions(search, params, { driver: 0, postingsOnly: options.probeFirst === true && search.terms.length > 1 });
    return `SELECT ${columns} FROM ${driverPostings(search)} CROSS JOIN articles a ON a.rowid = d.article WHERE ${driverCondition(search)}${and(where)}`;
  }
  const where = conditions(search, params);
  return `SELECT ${columns} FROM articles a INDEXED BY articles_recent ${whereClause(where)}`;
}

/**
 * SQL reading the rowid of every match in an index, touching no article row where the query needs none: the FTS
 * index alone for keywords without filters, the postings alone for filters without a window.
 */
export function matchedRowids(search: PartitionSearch, params: Params): string {
  const windowed = search.from !== undefined || search.to !== undefined;
  if (search.match !== undefined && search.terms.length === 0 && search.ranges.length === 0 && !windowed) {
    params.match = search.match;
    return "SELECT rowid FROM articles_fts WHERE articles_fts MATCH @match";
  }
  if (search.match === undefined && search.terms.length > 0 && !windowed) {
    const where = conditions(search, params, { driver: 0, postingsOnly: true });
    return `SELECT d.article FROM ${driverPostings(search)} WHERE ${driverCondition(search)}${and(where)}`;
  }
  return matchSet(search, params, "a.rowid", { probeFirst: true });
}

/**
 * The postings of the driving term (`terms[0]`, bound as `@t0` by conditions()) as `d`: its own, or, for an
 * entity id's group of spellings, each article carrying any of them once.
 */
export function driverPostings(search: PartitionSearch): string {
  return search.terms[0]?.ids
    ? "(SELECT DISTINCT p.article FROM postings p WHERE p.term IN (SELECT value FROM json_each(@t0))) d"
    : "postings d";
}

/** The condition that selects the driving term's postings in `d` (see driverPostings). */
export function driverCondition(search: PartitionSearch): string {
  return search.terms[0]?.ids ? "1" : "d.term = @t0";
}
