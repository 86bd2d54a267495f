import { decodeCursor, fingerprintOf, type CursorPosition } from "../../domain/browse-cursor.js";
import { FILTER_FIELD_NAMES, isFilterField, type FilterField } from "../../domain/filter-fields.js";
import { parseKeywordQuery, type KeywordQuery } from "../../domain/keyword-query.js";
import { isMentionedDate } from "../../domain/mentioned-date.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import type { LIST_FILTERS, LIST_PARAMS, ParamsOf, SHARED_FILTERS, STORY_QUERY } from "../../schemas/params.js";
import { ApiError, invalidParameter } from "../../shared/api-error.js";
import { closestName } from "../../shared/closest-name.js";
import { parseTimeBound } from "../../shared/timestamps.js";
import { parseEntityIds } from "../../usecases/entities/entity-ids.js";
import { signalRangesOf } from "../../usecases/search/signal-filters.js";
import type { ArticleSearchRequest } from "../../usecases/search/article-search-request.js";
import { CANDIDATE_PARAMS, candidateCheckOf } from "../../usecases/search/candidate-filters.js";

// Cross-field rules of /search and /top-headlines (spec section 4: shared
// filter rules, Pagination), applied to parameters that already passed their
// own checks. Everything here runs before any index work; a broken rule is a
// 400 that is never charged.

/**
 * Parameters as validated against their declarations (schemas/params.ts):
 * /search takes them all; /top-headlines, /stories, /aggregate and a watch's
 * query a part.
 */
export type ListParams = ParamsOf<typeof STORY_QUERY & typeof SHARED_FILTERS & typeof LIST_FILTERS & typeof LIST_PARAMS>;

/** `view`: every field, or the compact few. */

const MAX_FACETS = 8;

export function toSearchRequest(params: ListParams): ArticleSearchRequest {
  const keywords = params.q === undefined ? undefined : keywordsOf(params.q);
  const mode = params.mode ?? "keyword";
  if (mode !== "keyword" && params.q === undefined) {
    throw invalidParameter("mode", `'mode=${mode}' ranks by 'q': give a 'q', or leave 'mode' out for a newest-first browse.`);
  }
  const filters = filtersOf(params);
  const { ranges, percentile } = signalRangesOf(params);
  if (ranges.length > 0) filters.signal_ranges = ranges;
  const request: ArticleSearchRequest = {
    keywords,
    mode,
    ...(params.q === undefined ? {} : { text: params.q }),
    filters,
    offset: params.offset ?? 0,
    limit: params.limit ?? 10,
    view: params.view ?? "full",
  };
  if (params.facets !== undefined) request.facets = { fields: facetFields(params.facets), limit: params.facet_limit ?? 10 };
  if (percentile) request.percentile = percentile;
  const check = candidateCheckOf(params);
  if (check) request.check = check;
  // The percentile is part of what a cursor pages over: its threshold is computed again on every page.
  if (params.cursor !== undefined) request.cursor = cursorOf(params, { ...filters, percentile });
  return request;
}

/** `q` parsed; one with no word to search for is refused. */
export function keywordsOf(q: string): KeywordQuery {
  const keywords = parseKeywordQuery(q);
  if (keywords === undefined)
    throw invalidParameter("q", "'q' holds no word to search for: give at least one word that is not negated.");
  return keywords;
}

export function filtersOf(params: ListParams): ArticleFilters {
  const filters: ArticleFilters = {};
  for (const field of FILTER_FIELD_NAMES) {
    const value = params[field]?.trim();
    if (value === undefined) continue;
    if (value === "") throw invalidParameter(field, `'${field}' is blank: give a value, or leave the parameter out.`);
    filters[field] = value;
  }
  if (filters.source !== undefined) filters.source = bareDomain(filters.source);
  if (filters.mentioned_date !== undefined && !isMentionedDate(filters.mentioned_date)) {
    throw invalidParameter(
      "mentioned_date",
      `'mentioned_date' is not a real date: ${filters.mentioned_date}. Use YYYY-MM-DD, YYYY-MM, YYYY or --MM-DD (a day without a year).`,
    );
  }
  if (params.entity_id !== undefined) filters.entities = parseEntityIds(params.entity_id).map(({ type, key }) => ({ type, key }));
  const { from, to } = parseWindow(params.from, params.to);
  if (from !== undefined) filters.from = from;
  if (to !== undefined) filters.to = to;
  return filters;
}

/** `from`/`to` as given (`YYYY-MM-DD` or 14-digit) to inclusive 14-digit bounds; a day as `to` is its whole day. */
export function parseWindow(
  fromParam: string | undefined,
  toParam: string | undefined,
  names: { from: string; to: string } = { from: "from", to: "to" },
): { from?: string; to?: string } {
  const from = fromParam === undefined ? undefined : parseTimeBound(fromParam, "start");
  const to = toParam === undefined ? undefined : parseTimeBound(toParam, "end");
  if (fromParam !== undefined && from === undefined) throw notADate(names.from, fromParam);
  if (toParam !== undefined && to === undefined) throw notADate(names.to, toParam);
  if (from !== undefined && to !== undefined && from > to) {
    throw invalidParameter(names.from, `'${names.from}' (${fromParam}) is after '${names.to}' (${toParam}).`);
  }
  return { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
}

/** `https://www.BBC.co.uk/` and `bbc.co.uk` name the same publisher. */
function bareDomain(source: string): string {
  return source
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/^www\./i, "")
    .replace(/\/+$/, "");
}

export function facetFields(list: string): FilterField[] {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const fields: FilterField[] = [];
  for (const name of names) {
    if (!isFilterField(name)) {
      const suggestion = closestName(name, FILTER_FIELD_NAMES);
      throw invalidParameter(
        "facets",
        `'facets' names an unknown field '${name}'. Did you mean '${suggestion}'? Facet fields: ${FILTER_FIELD_NAMES.join(", ")}.`,
      );
    }
    if (!fields.includes(name)) fields.push(name);
  }
  if (fields.length === 0) throw invalidParameter("facets", "'facets' names no field: give up to 8 comma-separated fields.");
  if (fields.length > MAX_FACETS) {
    throw invalidParameter("facets", `'facets' names ${fields.length} fields; at most ${MAX_FACETS} are counted per request.`);
  }
  return fields;
}

function cursorOf(
  params: ListParams,
  filters: Readonly<Record<string, unknown>>,
): { after: CursorPosition | null; fingerprint: string } {
  if (params.q !== undefined) {
    throw invalidParameter(
      "cursor",
      "'cursor' pages a newest-first browse only: it cannot be combined with 'q'. Page a keyword search with 'offset'.",
    );
  }
  const checked = CANDIDATE_PARAMS.find((name) => params[name] !== undefined);
  if (checked !== undefined) {
    throw invalidParameter(
      "cursor",
      `'cursor' cannot be combined with '${checked}': geographic and amount filters check a bounded set of candidates. Page with 'offset'.`,
    );
  }
  if (params.offset !== undefined) {
    throw invalidParameter(
      "cursor",
      "'cursor' and 'offset' cannot be combined: send 'cursor=start', then each 'next_cursor', without 'offset'.",
    );
  }
  const fingerprint = fingerprintOf(filters);
  if (params.cursor === "start") return { after: null, fingerprint };
  const decoded = decodeCursor(params.cursor ?? "");
  if (decoded === undefined) {
    throw invalidParameter(
      "cursor",
      "'cursor' is not a cursor this server issued: send 'cursor=start', then each 'next_cursor' unchanged.",
    );
  }
  if (decoded.fingerprint !== fingerprint) {
    throw invalidParameter(
      "cursor",
      "'cursor' was issued for other filters or another window: repeat the same filters, 'from' and 'to' on every page, or start again with 'cursor=start'.",
    );
  }
  return { after: decoded.position, fingerprint };
}

function notADate(name: string, value: string): ApiError {
  return invalidParameter(name, `'${name}' is not a real date or time: ${value}. Use YYYY-MM-DD or YYYYMMDDHHMMSS (UTC).`);
}
