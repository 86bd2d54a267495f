import type { ArticleDetail } from "../../domain/article.js";
import { browseStamp } from "../../domain/browse-cursor.js";
import { filterValuesOf, foldValue } from "../../domain/filter-fields.js";
import { headlineKey } from "../../domain/stories/headline-key.js";
import { signalCode, signalValues } from "../../domain/vocabularies/signals-v1.js";

// An article as the index writes it: serialised, its filter values folded,
// its FTS text assembled. Prepared on the ingest thread (structured clone
// carries it across cheaply); the writer thread deflates the JSON, which
// balances the two threads on two cores and skips an article already stored.

export interface PreparedArticle {
  id: string;
  published_at: string;
  /** Folded values of the single-valued filter columns. */
  source: string | null;
  source_type: string | null;
  publisher_country: string | null;
  language: string | null;
  title: string;
  /** The normalised headline its story's representative is chosen by; null without a title. */
  headline: string | null;
  /** Persons, organizations and other names, once each: the FTS `entities` column. */
  entities: string;
  /** The article as JSON (what /doc and search results return); the writer stores it deflated (doc-codec.ts). */
  json: string;
  /** Every filter value: field code, folded key, and its spelling ("" when it is the key). */
  codes: Uint8Array;
  keys: string[];
  spellings: string[];
  /** The signals it carries: signals-v1 code and intensity, in pairs. */
  signals: number[];
  /** Coordinates of the cities it mentions: latitude and longitude, in pairs. */
  places: number[];
  /** Amounts whose number parses: the number and the folded object. */
  amounts: Array<[number, string]>;
}

export function prepareArticle(a: ArticleDetail): PreparedArticle {
  const values = filterValuesOf(a);
  return {
    id: a.id,
    published_at: browseStamp(a),
    source: folded(a.source),
    source_type: folded(a.source_type),
    publisher_country: folded(a.publisher_country),
    language: folded(a.language),
    title: a.title ?? "",
    headline: headlineKey(a.title, a.source),
    entities: entityText(a),
    json: JSON.stringify(a),
    codes: Uint8Array.from(values, (v) => v.code),
    keys: values.map((v) => v.key),
    spellings: values.map((v) => (v.value === v.key ? "" : v.value)),
    signals: signalValues(a.signals).flatMap(([name, value]) => [signalCode(name), value]),
    places: cityCoordinates(a),
    amounts: amountsOf(a),
  };
}

function folded(value: string | null): string | null {
  return value === null ? null : foldValue(value);
}

function entityText(a: ArticleDetail): string {
  const seen = new Set<string>();
  for (const value of [...a.persons, ...a.organizations, ...a.names]) seen.add(value.toLowerCase());
  return [...seen].join(" ; ");
}

/** Spec section 4, rule 5: `near` and `bbox` match mentioned cities, not regions or countries. */
export function cityCoordinates(a: ArticleDetail): number[] {
  return a.location_details.flatMap((l) =>
    l.kind === "city" && l.latitude !== null && l.longitude !== null ? [l.latitude, l.longitude] : [],
  );
}

/** Amounts whose number parses, with the folded object they describe. */
export function amountsOf(a: ArticleDetail): Array<[number, string]> {
  return a.amounts.flatMap((m): Array<[number, string]> => (m.number === null ? [] : [[m.number, foldValue(m.object)]]));
}
