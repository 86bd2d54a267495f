import {
  acronymsOf,
  ENTITY_RESOLUTION_VERSION,
  ENTITY_TYPE_FIELDS,
  ENTITY_TYPES,
  entityKey,
  wordStarts,
  type EntityType,
} from "../../domain/entities/entity-key.js";
import { FILTER_FIELDS } from "../../domain/filter-fields.js";
import type { ArticlePartition } from "./article-partition.js";
import type { StatementCache } from "./statement-cache.js";

// The er-v1 keys of a monthly index's entity values, kept beside its terms:
//
//   entity_keys  (field, key, term): the er-v1 key of every term of the nine
//                entity fields (kind 0), the same key read from each of its
//                later words (kind 1: `joe biden` also under `biden`) and its
//                acronyms (kind 2), so an entity id, a name's exact and
//                prefix matches and its acronyms are each one index lookup.
//
// Added without a new index layout: the table is created when a monthly index
// is opened for writing and filled from its terms once, marked by
// `entity_keys = er-v1` in `meta`; new terms add their rows as they are
// written. A monthly index not yet marked (not written since) is read by
// keying its terms on the fly: slower, same answer.

const MARKER = "entity_keys";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entity_keys (
  field INTEGER NOT NULL,
  key TEXT NOT NULL,
  kind INTEGER NOT NULL,
  term INTEGER NOT NULL,
  PRIMARY KEY (field, key, term)
) WITHOUT ROWID;
`;

export const KEY = 0;
export const WORD_START = 1;
export const ACRONYM = 2;

/** Entity type by field code, for the nine entity fields. */
const TYPE_OF_CODE = new Map<number, EntityType>(
  ENTITY_TYPES.map((type) => [FILTER_FIELDS[ENTITY_TYPE_FIELDS[type]].code, type]),
);

export function entityCode(type: EntityType): number {
  return FILTER_FIELDS[ENTITY_TYPE_FIELDS[type]].code;
}

/** The rows of one term: [key, kind]; none for a field that is not an entity field or a value keyed to nothing. */
export function keyRows(code: number, termKey: string): Array<[string, number]> {
  const type = TYPE_OF_CODE.get(code);
  if (type === undefined) return [];
  const key = entityKey(type, termKey);
  if (key === "") return [];
  return [
    [key, KEY],
    ...wordStarts(key).map((start): [string, number] => [start, WORD_START]),
    ...acronymsOf(key).map((acronym): [string, number] => [acronym, ACRONYM]),
  ];
}

/** Adds the rows of terms first written in this transaction (term-writer.ts). */
export function addEntityKeys(statements: StatementCache, code: number, termKey: string, term: number): void {
  const rows = keyRows(code, termKey);
  if (rows.length === 0) return;
  const insert = statements.get("INSERT OR IGNORE INTO entity_keys (field, key, kind, term) VALUES (?, ?, ?, ?)");
  for (const [key, kind] of rows) insert.run(code, key, kind, term);
}

/** Creates and fills the table once per index (and again under another resolution version). Call on a write connection. */
export function ensureEntityKeys(partition: ArticlePartition): void {
  const { db, statements } = partition;
  if (hasEntityKeys(partition)) return;
  partition.writing(() =>
    db.transaction(() => {
      db.exec(SCHEMA);
      db.exec("DELETE FROM entity_keys");
      const terms = statements.get("SELECT id, key FROM terms WHERE field = ?");
      for (const code of TYPE_OF_CODE.keys()) {
        // Read first: a connection cannot write while one of its statements is still iterating.
        for (const row of terms.all(code) as Array<{ id: number; key: string }>) addEntityKeys(statements, code, row.key, row.id);
      }
      statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(MARKER, ENTITY_RESOLUTION_VERSION);
    })(),
  );
}

export function hasEntityKeys(partition: ArticlePartition): boolean {
  return partition.statements.get("SELECT value FROM meta WHERE key = ?").pluck().get(MARKER) === ENTITY_RESOLUTION_VERSION;
}

/** A term an entity lookup found. */
export interface KeyedTerm {
  id: number;
  /** The folded value (the term key) and its first-seen spelling (null when it is the key). */
  key: string;
  value: string | null;
  /** Articles in this index carrying it. */
  docs: number;
  /** The term's own er-v1 key. */
  entityKey: string;
}

/**
 * Terms of `type` held by articles of this index whose rows match: kind KEY
 * rows equal to `key` (an entity id's spellings), or with `startsWith` the
 * KEY and WORD_START rows equal to `key` or beginning with `key` and a space
 * (a name's exact and prefix matches), or ACRONYM rows equal to `key`.
 */
export function keyedTerms(
  partition: ArticlePartition,
  type: EntityType,
  key: string,
  kinds: "key" | "words" | "acronym",
  limit = 10_000,
): KeyedTerm[] {
  const code = entityCode(type);
  if (!hasEntityKeys(partition)) return keyedTermsOnTheFly(partition, type, key, kinds, limit);
  const select = `SELECT DISTINCT t.id, t.key, t.value, t.docs FROM entity_keys e JOIN terms t ON t.id = e.term`;
  let rows: Array<Omit<KeyedTerm, "entityKey">>;
  if (kinds === "key") {
    rows = partition.statements
      .get(`${select} WHERE e.field = ? AND e.key = ? AND e.kind = ${KEY} AND t.docs > 0 LIMIT ?`)
      .all(code, key, limit) as typeof rows;
  } else if (kinds === "acronym") {
    rows = partition.statements
      .get(`${select} WHERE e.field = ? AND e.key = ? AND e.kind = ${ACRONYM} AND t.docs > 0 ORDER BY t.docs DESC LIMIT ?`)
      .all(code, key, limit) as typeof rows;
  } else {
    // `key` itself, or `key ` followed by anything: the range [key + " ", key + "!") holds the latter, "!" following " ".
    rows = partition.statements
      .get(
        `${select} WHERE e.field = @code AND (e.key = @key OR (e.key >= @lo AND e.key < @hi)) AND e.kind IN (${KEY}, ${WORD_START})
         AND t.docs > 0 ORDER BY t.docs DESC LIMIT @limit`,
      )
      .all({ code, key, lo: `${key} `, hi: `${key}!`, limit }) as typeof rows;
  }
  return rows.map((row) => ({ ...row, entityKey: entityKey(type, row.key) }));
}

/** keyedTerms over an index without the table: every term of the field keyed here. */
function keyedTermsOnTheFly(
  partition: ArticlePartition,
  type: EntityType,
  key: string,
  kinds: "key" | "words" | "acronym",
  limit: number,
): KeyedTerm[] {
  const code = entityCode(type);
  const found: KeyedTerm[] = [];
  const terms = partition.statements.get("SELECT id, key, value, docs FROM terms WHERE field = ? AND docs > 0");
  for (const row of terms.iterate(code) as Iterable<Omit<KeyedTerm, "entityKey">>) {
    const rows = keyRows(code, row.key);
    const hit = rows.some(([k, kind]) =>
      kinds === "key"
        ? kind === KEY && k === key
        : kinds === "acronym"
          ? kind === ACRONYM && k === key
          : kind !== ACRONYM && (k === key || k.startsWith(`${key} `)),
    );
    if (hit) found.push({ ...row, entityKey: (rows[0] as [string, number])[0] });
  }
  return found.sort((a, b) => b.docs - a.docs).slice(0, limit);
}

/** One monthly index's part of EntitySpellings. */
export interface EntitySpellingsPart {
  spellings: Array<{ key: string; value: string; entityKey: string; articles: number }>;
  truncated: boolean;
  windowChecked: boolean;
}

/** The spellings of this index keyed as asked, counted (or found) within the window. */
export function entitySpellingsPart(
  partition: ArticlePartition,
  query: {
    type: EntityType;
    key: string;
    lookup: "id" | "words" | "acronym";
    from?: string;
    to?: string;
    counts: boolean;
    limit: number;
  },
): EntitySpellingsPart {
  const none = { spellings: [], truncated: false, windowChecked: false };
  const { bounds } = partition.stats();
  if (bounds === undefined) return none;
  const { from, to } = query;
  if ((from !== undefined && from > bounds.newest) || (to !== undefined && to < bounds.oldest)) return none;
  const kinds = query.lookup === "id" ? "key" : query.lookup;
  const terms = keyedTerms(partition, query.type, query.key, kinds, query.limit + 1);
  const truncated = terms.length > query.limit;
  if (truncated) terms.pop();
  const cut = (from !== undefined && from > bounds.oldest) || (to !== undefined && to < bounds.newest);
  const spell = (t: KeyedTerm, articles: number) => ({ key: t.key, value: t.value ?? t.key, entityKey: t.entityKey, articles });
  if (!cut) return { spellings: terms.map((t) => spell(t, t.docs)), truncated, windowChecked: false };
  const params = { from: from ?? "", to: to ?? "99999999999999" };
  const inWindow = partition.statements.get(
    `SELECT ${query.counts ? "count(*)" : "1"} FROM postings p CROSS JOIN articles a ON a.rowid = p.article
     WHERE p.term = @term AND a.published_at >= @from AND a.published_at <= @to${query.counts ? "" : " LIMIT 1"}`,
  );
  const spellings = terms.flatMap((t) => {
    const articles = (inWindow.pluck().get({ ...params, term: t.id }) as number | undefined) ?? 0;
    return articles > 0 ? [spell(t, articles)] : [];
  });
  return { spellings, truncated, windowChecked: terms.length > 0 };
}
