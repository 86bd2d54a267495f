import Database from "better-sqlite3";
import { FILTER_FIELDS, foldValue, type FilterField } from "../../domain/filter-fields.js";
import { ENTITY_TYPE_FIELDS } from "../../domain/entities/entity-key.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import { keyedTerms } from "./entity-keys.js";
import type { ResolvedTerm } from "./match-conditions.js";
import {
  DERIVED_FIELDS_BUILT,
  DERIVED_SCHEMA,
  SCHEMA,
  SCHEMA_VERSION,
  TALLIES_BUILT,
  TALLY_SCHEMA,
  type DerivedVocabulary,
} from "./partition-schema.js";
import { StatementCache } from "./statement-cache.js";
import { decodeDoc } from "./doc-codec.js";
import { warnRecovered } from "../../shared/caught.js";

// One monthly index: a SQLite file holding the articles collected in one
// calendar month (UTC); layout in partition-schema.ts. This is its connection
// and what every job on it shares (its counts, its terms, its documents); the
// jobs live beside it:
//
//   partition-writer.ts   writes articles, moves them between stories
//   partition-search.ts   candidates of a search page and the total
//   partition-facets.ts   facet counts over the match set
//   partition-stories.ts  story matches, sizes and members
//
// Queries return lightweight candidates; documents are read only for the page
// returned.

const READ_BUSY_MS = 250;
const WRITE_BUSY_MS = 5000;
/** Page cache (negative: KiB) of a connection that reads. */
const READ_CACHE_KIB = -16_384;
/**
 * Page size of a new index file: a stored document (doc-codec.ts) is about 800 bytes, so a 4 KiB page holds four
 * and leaves a sixth of itself empty; 8 KiB pages hold nine.
 */
const PAGE_SIZE = 8192;
/** Page cache of a connection that maps nothing: enough for the trees' inner pages. */
const UNMAPPED_CACHE_KIB = -2048;

/** A monthly index file written by another version of the index layout. */
export class OutdatedIndexError extends Error {
  constructor(
    readonly month: string,
    readonly path: string,
    readonly version: string,
  ) {
    super(
      `the monthly index ${month} was built with index schema ${version} (this version reads ${SCHEMA_VERSION}); re-ingest its files`,
    );
  }
}

export interface Bounds {
  oldest: string;
  newest: string;
}

export class ArticlePartition {
  readonly month: string;
  /** The index file. */
  readonly path: string;
  /** For the jobs beside this file (partition-*.ts). */
  readonly db: Database.Database;
  readonly statements: StatementCache;
  private cachedStats: { version: number; count: number; bounds: Bounds | undefined } | undefined;
  private readonly memos = new Map<string, unknown>();
  private memoVersion = -1;

  /** `mapped: false` reads through the page cache alone (a small one): for reads of a whole index once over. */
  constructor(month: string, path: string, options: { create: boolean; mapped?: boolean }) {
    this.month = month;
    this.path = path;
    this.db = new Database(path, { fileMustExist: !options.create, timeout: options.create ? WRITE_BUSY_MS : READ_BUSY_MS });
    this.statements = new StatementCache(this.db);
    try {
      // Only a new file takes it (before anything is written, WAL included); an existing one keeps its own.
      if (options.create) this.db.pragma(`page_size = ${PAGE_SIZE}`);
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      // Reads come through the memory map (unless `mapped: false`); the page cache grows only once the connection writes.
      this.db.pragma(`cache_size = ${options.mapped === false ? UNMAPPED_CACHE_KIB : READ_CACHE_KIB}`);
      this.db.pragma(options.mapped === false ? "mmap_size = 0" : "mmap_size = 2147483648");
      this.db.pragma("temp_store = MEMORY");
      // A bulk ingest dirties many postings pages per transaction; checkpointing every 40 MB
      // instead of every 4 MB writes each of them back far fewer times.
      this.db.pragma("wal_autocheckpoint = 10000");
      // The version is checked before anything is created, so a file of another version is left untouched.
      const version = this.schemaVersion();
      if (version !== undefined && version !== SCHEMA_VERSION) throw new OutdatedIndexError(month, path, version);
      if (version === undefined) {
        if (!options.create) throw new Error(`index ${month} holds no schema version`);
        this.db.exec(SCHEMA);
        this.db
          .prepare(
            "INSERT INTO meta (key, value) VALUES ('schema_version', ?), ('month', ?), ('articles', '0'), ('derived_fields', ?), ('tallies', ?)",
          )
          .run(SCHEMA_VERSION, month, DERIVED_FIELDS_BUILT.join(","), TALLIES_BUILT);
      }
      // An index built before the derived data gets its tables (empty for its older articles: see derived_fields).
      if (options.create) this.db.exec(DERIVED_SCHEMA + TALLY_SCHEMA);
      // A reader waits briefly for a lock (a partial answer beats a stalled one); a write waits longer.
      this.db.pragma(`busy_timeout = ${READ_BUSY_MS}`);
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  private schemaVersion(): string | undefined {
    const hasMeta = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").pluck().get();
    if (hasMeta === undefined) return undefined;
    return this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
  }

  /**
   * Runs a write transaction on this connection with the writer's lock wait
   * (partition-writer.ts); the counts cached here are read again after it.
   */
  writing<T>(run: () => T): T {
    this.db.pragma(`busy_timeout = ${WRITE_BUSY_MS}`);
    this.cachedStats = undefined;
    this.memos.clear();
    try {
      return run();
    } finally {
      this.db.pragma(`busy_timeout = ${READ_BUSY_MS}`);
    }
  }

  /** The derived vocabularies every article of this index carries (partition-schema.ts DERIVED_SCHEMA). */
  derivedFields(): ReadonlySet<DerivedVocabulary> {
    return this.cached("derived_fields", () => {
      const value = this.statements.get("SELECT value FROM meta WHERE key = 'derived_fields'").pluck().get() as
        string | undefined;
      return new Set(
        (value ?? "").split(",").filter((v): v is DerivedVocabulary => (DERIVED_FIELDS_BUILT as readonly string[]).includes(v)),
      );
    });
  }

  /** True when the time tallies count every article here (partition-schema.ts TALLY_SCHEMA). */
  talliesBuilt(): boolean {
    return this.cached(
      "tallies_built",
      () => this.statements.get("SELECT value FROM meta WHERE key = 'tallies'").pluck().get() === TALLIES_BUILT,
    );
  }

  /** Number of articles held (kept in `meta` by every write, so no scan). */
  count(): number {
    return this.stats().count;
  }

  /**
   * Article count and oldest/newest published_at (undefined when empty), read
   * again only when the file changed: `data_version` moves when another
   * connection (the writer thread, another process) commits; this
   * connection's own writes clear the cache in writing(). A query takes one
   * snapshot and carries it (PartitionSearch.articles).
   */
  stats(): { count: number; bounds: Bounds | undefined } {
    const version = this.statements.get("PRAGMA data_version").pluck().get() as number;
    if (this.cachedStats?.version === version) return this.cachedStats;
    const count = Number(this.statements.get("SELECT value FROM meta WHERE key = 'articles'").pluck().get());
    const newest = this.statements
      .get("SELECT published_at FROM articles INDEXED BY articles_recent ORDER BY published_at DESC LIMIT 1")
      .pluck()
      .get() as string | undefined;
    const oldest = this.statements
      .get("SELECT published_at FROM articles INDEXED BY articles_recent ORDER BY published_at ASC LIMIT 1")
      .pluck()
      .get() as string | undefined;
    const bounds = newest === undefined || oldest === undefined ? undefined : { oldest, newest };
    this.cachedStats = { version, count, bounds };
    return this.cachedStats;
  }

  /** A value read from this index, kept until the index changes (another connection commits, or this one writes). */
  cached<T>(key: string, read: () => T): T {
    const version = this.statements.get("PRAGMA data_version").pluck().get() as number;
    if (version !== this.memoVersion) {
      this.memos.clear();
      this.memoVersion = version;
    }
    if (!this.memos.has(key)) {
      // A bounded memory: past a few hundred phrases, start over.
      if (this.memos.size >= 512) this.memos.clear();
      this.memos.set(key, read());
    }
    return this.memos.get(key) as T;
  }

  /**
   * The filter values as this index's terms, rarest first; null when one of
   * them does not occur here, so nothing in this index can match.
   */
  resolve(filters: ArticleFilters): ResolvedTerm[] | null {
    const lookup = this.statements.get("SELECT id, docs FROM terms WHERE field = ? AND key = ?");
    const terms: ResolvedTerm[] = [];
    for (const [field, spec] of Object.entries(FILTER_FIELDS)) {
      const value = filters[field as FilterField];
      if (value === undefined) continue;
      const key = foldValue(value);
      const term = lookup.get(spec.code, key) as { id: number; docs: number } | undefined;
      if (term === undefined || term.docs === 0) return null;
      terms.push({ ...term, field, key });
    }
    for (const entity of filters.entities ?? []) {
      // Every spelling of the group held here; none means nothing here can match.
      const group = keyedTerms(this, entity.type, entity.key, "key");
      const first = group[0];
      if (first === undefined) return null;
      const field = ENTITY_TYPE_FIELDS[entity.type];
      if (group.length === 1) terms.push({ id: first.id, docs: first.docs, field, key: first.key });
      else
        terms.push({
          id: first.id,
          ids: group.map((t) => t.id),
          docs: group.reduce((sum, t) => sum + t.docs, 0),
          field,
          key: entity.key,
        });
    }
    return terms.sort((a, b) => a.docs - b.docs);
  }

  /** The id of the term (field `code`, folded `key`); undefined when no article here ever carried it. */
  termId(code: number, key: string): number | undefined {
    return this.statements.get("SELECT id FROM terms WHERE field = ? AND key = ?").pluck().get(code, key) as number | undefined;
  }

  /** Folded key and first-seen spelling (null when it is the key) of term ids, by id. */
  spellings(ids: readonly number[]): Map<number, { key: string; value: string | null }> {
    if (ids.length === 0) return new Map();
    const rows = this.statements
      .get("SELECT t.id, t.key, t.value FROM json_each(?) j JOIN terms t ON t.id = j.value")
      .all(JSON.stringify(ids)) as Array<{ id: number; key: string; value: string | null }>;
    return new Map(rows.map((r) => [r.id, r]));
  }

  getDoc(id: string): string | undefined {
    const stored = this.statements
      .get("SELECT d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?")
      .pluck()
      .get(id) as Buffer | undefined;
    return stored === undefined ? undefined : decodeDoc(stored);
  }

  /** Documents of a page of ids, by id. */
  getDocs(ids: readonly string[]): Map<string, string> {
    const rows = this.statements
      .get("SELECT a.id, d.doc FROM json_each(?) j JOIN articles a ON a.id = j.value JOIN docs d ON d.rowid = a.rowid")
      .all(JSON.stringify(ids)) as Array<{ id: string; doc: Buffer }>;
    return new Map(rows.map((r) => [r.id, decodeDoc(r.doc)]));
  }

  close(): void {
    this.db.close();
  }
}

/** Closes a connection that may have failed: it may fail to close too, and is dropped either way. */
export function closeQuietly(handle: { close(): void } | undefined): void {
  try {
    handle?.close();
  } catch (error) {
    // Nothing more to do with a broken handle; said, so a close that keeps failing is seen.
    warnRecovered("closing a failed connection", error);
  }
}
