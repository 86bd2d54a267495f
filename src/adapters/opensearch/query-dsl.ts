import type { Types } from "@opensearch-project/opensearch";
import type { EntityType } from "../../domain/entities/entity-key.js";
import { foldValue, isFilterField } from "../../domain/filter-fields.js";
import type { GeoArea } from "../../domain/geo-area.js";
import type { KeywordQuery, Phrase } from "../../domain/keyword-query.js";
import type { ArticleFilters, CandidateCheck, SignalRange } from "../../domain/search-query.js";
import { SIGNALS_V1 } from "../../domain/vocabularies/signals-v1.js";
import { SPELLING_SEPARATOR } from "./article-document.js";
import { amountKeyRange } from "./amount-keys.js";
import { FILTER_PATHS } from "./article-mapping.js";

// The domain's validated query compiled to OpenSearch's query DSL. Filters go
// in filter context (no score, cached by the node); only the keywords score.

export type Query = Types.Common_QueryDsl.QueryContainer;

/**
 * The keyword ranking of the embedded index (adapters/sqlite/bm25.ts: BM25
 * over the title, weight 10, and the entity names, weight 1): each phrase
 * scores BM25 in the title times 10 plus BM25 in the names. Every `must`
 * clause must match (any one of its phrases), no `mustNot` clause may.
 */
export const TITLE_WEIGHT = 10;
export const ENTITIES_WEIGHT = 1;

function phraseQuery(words: Phrase): Query {
  const text = words.join(" ");
  return {
    bool: {
      should: [
        { match_phrase: { title: { query: text, boost: TITLE_WEIGHT } } },
        { match_phrase: { "indexed.entities": { query: text, boost: ENTITIES_WEIGHT } } },
      ],
      minimum_should_match: 1,
    },
  };
}

function clauseQuery(anyOf: readonly Phrase[]): Query {
  const [only] = anyOf;
  if (anyOf.length === 1 && only) return phraseQuery(only);
  return { bool: { should: anyOf.map(phraseQuery), minimum_should_match: 1 } };
}

export function keywordQuery(keywords: KeywordQuery): Query {
  return {
    bool: {
      must: keywords.must.map((c) => clauseQuery(c.anyOf)),
      ...(keywords.mustNot.length > 0 ? { must_not: keywords.mustNot.map((c) => clauseQuery(c.anyOf)) } : {}),
    },
  };
}

/** The window on the browse time, 14-digit inclusive bounds: a clause, or none without bounds. */
export function windowClauses(window: { from?: string | undefined; to?: string | undefined }): Query[] {
  if (window.from === undefined && window.to === undefined) return [];
  const bounds: Types.Common_QueryDsl.DateRangeQuery = {};
  if (window.from !== undefined) bounds.gte = window.from;
  if (window.to !== undefined) bounds.lte = window.to;
  return [{ range: { "indexed.stamp": bounds } }];
}

/** The start of every spelling of `type` keyed `key` in `indexed.spellings`. */
export function spellingPrefix(type: EntityType, key: string): string {
  return `${type}${SPELLING_SEPARATOR}${key}${SPELLING_SEPARATOR}`;
}

/** The path of a signal's intensity. */
export function signalPath(name: SignalRange["name"]): string {
  return `signals.${SIGNALS_V1[name].class}.${name}`;
}

function signalRange(range: SignalRange): Query {
  // Carrying the signal is an intensity above 0; the bounds are inclusive.
  const bounds: Types.Common_QueryDsl.NumberRangeQuery = { gt: 0 };
  if (range.min !== undefined) bounds.gte = range.min;
  if (range.max !== undefined) bounds.lte = range.max;
  return { range: { [signalPath(range.name)]: bounds } };
}

/** The exact-match filters, the window, entity ids and signal ranges, each a clause that must hold. */
export function filterClauses(filters: ArticleFilters): Query[] {
  const clauses: Query[] = [];
  for (const [field, value] of Object.entries(filters)) {
    if (!isFilterField(field) || typeof value !== "string") continue;
    // The normalizer folds the value too; folding here as well keeps NFC forms alike (domain foldValue).
    clauses.push({ term: { [FILTER_PATHS[field]]: foldValue(value) } });
  }
  for (const entity of filters.entities ?? []) {
    // Any spelling of the type keyed `key` (article-document.ts `spellings`).
    clauses.push({ prefix: { "indexed.spellings": spellingPrefix(entity.type, entity.key) } });
  }
  clauses.push(...windowClauses(filters));
  for (const range of filters.signal_ranges ?? []) clauses.push(signalRange(range));
  return clauses;
}

/** Degrees a box's edges move out, past the node's rounding of stored points (see areaQuery). */
const EDGE = 1e-7;

function areaQuery(area: GeoArea): Query {
  if (area.kind === "near") {
    return {
      geo_distance: { distance: `${area.radius_km}km`, "indexed.places": { lat: area.latitude, lon: area.longitude } },
    };
  }
  // A west edge east of the east edge crosses the antimeridian; geo_bounding_box reads it so. The node stores a point
  // to about 4e-8 degrees, rounded down, and rounds the box's south and west edges up: a city exactly on an edge
  // (the box holds its edges) would fall outside, so each edge moves out by EDGE (about a centimetre).
  const lat = (value: number, out: number) => Math.max(-90, Math.min(90, value + out));
  const lon = (value: number, out: number) => Math.max(-180, Math.min(180, value + out));
  return {
    geo_bounding_box: {
      "indexed.places": {
        top_left: { lat: lat(area.north, EDGE), lon: lon(area.west, -EDGE) },
        bottom_right: { lat: lat(area.south, -EDGE), lon: lon(area.east, EDGE) },
      },
    },
  };
}

/** The geographic and amount filters: matched through the index like any other filter. */
export function checkClauses(check: CandidateCheck | undefined): Query[] {
  if (check === undefined) return [];
  const clauses: Query[] = [];
  if (check.area) clauses.push(areaQuery(check.area));
  if (check.amount) {
    const { min, max, object } = check.amount;
    // One amount must satisfy every bound (and describe the object): with an object, a range over the keys of its
    // amounts; without, a range over the many-valued numbers, which one value must satisfy whole (amount-keys.ts).
    if (object !== undefined) clauses.push({ range: { "indexed.amounts": amountKeyRange(object, min, max) } });
    else {
      const number: Types.Common_QueryDsl.NumberRangeQuery = {};
      if (min !== undefined) number.gte = min;
      if (max !== undefined) number.lte = max;
      clauses.push({ range: { "amounts.number": number } });
    }
  }
  return clauses;
}

/** The whole query: keywords scored, everything else in filter context. */
export function articleQuery(
  keywords: KeywordQuery | undefined,
  filters: ArticleFilters,
  check?: CandidateCheck,
  extra: readonly Query[] = [],
): Query {
  const filter = [...filterClauses(filters), ...checkClauses(check), ...extra];
  return {
    bool: {
      ...(keywords ? { must: [keywordQuery(keywords)] } : {}),
      ...(filter.length > 0 ? { filter } : {}),
    },
  };
}
