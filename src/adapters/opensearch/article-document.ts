import type { ArticleDetail } from "../../domain/article.js";
import { browseStamp } from "../../domain/browse-cursor.js";
import { ENTITY_TYPES, ENTITY_TYPE_FIELDS, entityKey, type EntityType } from "../../domain/entities/entity-key.js";
import { FILTER_FIELDS, foldValue, type FilterFieldSpec } from "../../domain/filter-fields.js";
import { amountKeys } from "./amount-keys.js";
import { headlineKey } from "../../domain/stories/headline-key.js";
import { signalValues, type SignalName } from "../../domain/vocabularies/signals-v1.js";

// An article as a document of a monthly index (article-mapping.ts): the
// article itself, exactly as written, plus `indexed`, what only the index
// needs. Reading a document back drops `indexed`.

export interface IndexedFields {
  /** published_at, else collected_at, else the id's collection time: the window and the browse order. */
  stamp: string;
  /** Persons, organizations and other names, lower-cased, once each: ranked beside the title. */
  entities: string;
  /**
   * Every entity spelling the article carries, once per type and folded value, as `<type>|<er-v1 key>|<spelling>`:
   * an `entity_id` filter matches the prefix of its type and key, the lexicon aggregates them (entity-spellings.ts).
   */
  spellings: string[];
  /** story_id as written (the filter field folds it): stories are counted and listed by it. */
  story: string | null;
  /** The normalised headline stories compare (domain/stories/headline-key.ts); null without a title. */
  headline: string | null;
  /** Signals carried (intensity above 0). */
  signals: SignalName[];
  /** Each amount with a number as one term of its object and number (amount-keys.ts). */
  amounts: string[];
  /** Mentioned cities with coordinates (spec section 4, rule 5: not regions or countries). */
  places: Array<{ lat: number; lon: number }>;
  vector?: number[];
  vector_model?: string;
}

export type ArticleDocument = ArticleDetail & { indexed: IndexedFields };

export function toDocument(article: ArticleDetail): ArticleDocument {
  return {
    ...article,
    indexed: {
      stamp: browseStamp(article),
      entities: entityText(article),
      spellings: spellingsOf(article),
      story: article.story_id,
      headline: headlineKey(article.title, article.source),
      signals: signalValues(article.signals).map(([name]) => name),
      amounts: amountKeys(article.amounts),
      places: article.location_details.flatMap((l) =>
        l.kind === "city" && l.latitude !== null && l.longitude !== null ? [{ lat: l.latitude, lon: l.longitude }] : [],
      ),
    },
  };
}

/** The article a document holds. */
export function fromDocument(source: ArticleDocument): ArticleDetail {
  const { indexed: _indexed, ...article } = source;
  return article;
}

/** As the embedded index's FTS `entities` column: each name once, lower-cased, joined the same way. */
function entityText(a: ArticleDetail): string {
  const seen = new Set<string>();
  for (const value of [...a.persons, ...a.organizations, ...a.names]) seen.add(value.toLowerCase());
  return [...seen].join(" ; ");
}

/** The separator of a spelling's parts: no er-v1 key holds it (keys are letters, digits and spaces). */
export const SPELLING_SEPARATOR = "|";

/**
 * entityKey of each spelling seen lately: the same names recur across a feed's articles, and the key (Unicode
 * normalisation and several regular expressions) was about half of building a document, the largest share of the
 * ingest process's CPU per article in a bulk load. Cleared when full, so memory stays bounded.
 */
const KEYS_KEPT = 100_000;
const recentKeys = new Map<string, string>();

function keyOf(type: EntityType, value: string): string {
  const at = `${type}${SPELLING_SEPARATOR}${value}`;
  let key = recentKeys.get(at);
  if (key === undefined) {
    key = entityKey(type, value);
    if (recentKeys.size >= KEYS_KEPT) recentKeys.clear();
    recentKeys.set(at, key);
  }
  return key;
}

function spellingsOf(a: ArticleDetail): string[] {
  const out: string[] = [];
  for (const type of ENTITY_TYPES) {
    const field: FilterFieldSpec = FILTER_FIELDS[ENTITY_TYPE_FIELDS[type]];
    const seen = new Set<string>();
    for (const value of field.values(a)) {
      const folded = foldValue(value);
      if (folded === "" || seen.has(folded)) continue;
      seen.add(folded);
      const key = keyOf(type, value);
      if (key !== "") out.push([type, key, value].join(SPELLING_SEPARATOR));
    }
  }
  return out;
}
