import Database from "better-sqlite3";
import type { PartitionFacet } from "../../domain/facets.js";
import { FILTER_FIELDS, foldValue, type FilterField } from "../../domain/filter-fields.js";
import type { ArticleFilters } from "../../domain/search-query.js";
import { asUint32, FacetCounter } from "./facet-counter.js";
import {
  and,
  conditions,
  matchesWholeIndex,
  whereClause,
  type Keyset,
  type Params,
  type PartitionSearch,
  type ResolvedTerm,
} from "./match-conditions.js";
import { SCHEMA, SCHEMA_VERSION } from "./partition-schema.js";
import { PostingsBuffer } from "./postings-buffer.js";
import type { PreparedArticle } from "./prepared-article.js";
import { StatementCache } from "./statement-cache.js";
import { TermWriter } from "./term-writer.js";

// One monthly index: a SQLite file holding the articles collected in one
// calendar month (UTC); layout in partition-schema.ts. Queries return
// lightweight candidates; documents are read only for the page returned.

const READ_BUSY_MS = 250;
const WRITE_BUSY_MS = 5000;
/** Page cache (negative: KiB) of a connection that reads, and of one that has written. */
const READ_CACHE_KIB = -16_384;
const WRITE_CACHE_KIB = -262_144;

/** BM25 column weights: a title hit counts more than an entity-name hit. */
const BM25 = "bm25(articles_fts, 10.0, 1.0)";

/** A candidate: enough to merge partitions. `rowid` breaks ties of equal scores. */
export interface PartitionHit {
  id: string;
  published_at: string;
  rowid: number;
  score?: number;
}

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

/** A story's matches in one index: the newest matching published_at, and the best score on a keyword search. */
export interface StoryMatchRow {
  newest: string;
  score?: number;
}

/** What a story's counts need of one member (ports/story-index.ts StoryMember). */
export interface StoryMemberRow {
  id: string;
  title: string | null;
  url: string | null;
  source: string | null;
  published_at: string;
}

export interface Bounds {
  oldest: string;
  newest: string;
}

export class ArticlePartition {
  readonly month: string;
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private termWriter: TermWriter | undefined;
  private cachedStats: { version: number; count: number; bounds: Bounds | undefined } | undefined;

  constructor(month: string, path: string, options: { create: boolean }) {
    this.month = month;
    this.db = new Database(path, { fileMustExist: !options.create, timeout: options.create ? WRITE_BUSY_MS : READ_BUSY_MS });
    this.statements = new StatementCache(this.db);
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      // Reads come through the memory map; the page cache grows only once the connection writes.
      this.db.pragma(`cache_size = ${READ_CACHE_KIB}`);
      this.db.pragma("mmap_size = 2147483648");
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
          .prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?), ('month', ?), ('articles', '0')")
          .run(SCHEMA_VERSION, month);
      }
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

  /** Inserts the articles not yet present, in one transaction; returns how many were new. */
  write(articles: readonly PreparedArticle[]): number {
    const exists = this.statements.get("SELECT 1 FROM articles WHERE id = ?").pluck();
    const insertArticle = this.statements.get(
      `INSERT INTO articles (id, published_at, source, source_type, publisher_country, language, terms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertDoc = this.statements.get("INSERT INTO docs (rowid, doc) VALUES (?, ?)");
    const insertFts = this.statements.get("INSERT INTO articles_fts (rowid, title, entities) VALUES (?, ?, ?)");
    const bumpCount = this.statements.get("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'articles'");
    const postings = new PostingsBuffer(this.statements);
    const terms = this.writer();
    const run = this.db.transaction(() => {
      terms.begin();
      let inserted = 0;
      for (const a of articles) {
        if (exists.get(a.id) !== undefined) continue;
        const ids = new Uint32Array(a.codes.length);
        for (let i = 0; i < ids.length; i++) {
          ids[i] = terms.idOf(a.codes[i] as number, a.keys[i] as string, a.spellings[i] as string);
        }
        const rowid = insertArticle.run(
          a.id,
          a.published_at,
          a.source,
          a.source_type,
          a.publisher_country,
          a.language,
          Buffer.from(ids.buffer),
        ).lastInsertRowid;
        insertDoc.run(rowid, a.doc);
        insertFts.run(rowid, a.title, a.entities);
        postings.push(ids, Number(rowid));
        inserted++;
      }
      postings.flush();
      terms.commit();
      if (inserted > 0) bumpCount.run(inserted);
      return inserted;
    });
    return this.writing(run);
  }

  /** The term writer of this connection, made when it first writes. */
  private writer(): TermWriter {
    if (this.termWriter === undefined) {
      // Postings inserts land all over the B-tree: a large cache keeps a month's worth of it in memory.
      this.db.pragma(`cache_size = ${WRITE_CACHE_KIB}`);
      this.termWriter = new TermWriter(this.statements);
    }
    return this.termWriter;
  }

  /** Runs a write transaction with the writer's lock wait; a failed one leaves no cached term ids behind. */
  private writing<T>(run: () => T): T {
    this.db.pragma(`busy_timeout = ${WRITE_BUSY_MS}`);
    this.cachedStats = undefined;
    try {
      return run();
    } catch (error) {
      this.termWriter?.reset();
      throw error;
    } finally {
      this.db.pragma(`busy_timeout = ${READ_BUSY_MS}`);
    }
  }

  /** Number of articles held (kept in `meta` by every write, so no scan). */
  count(): number {
    return this.stats().count;
  }

  /**
   * Article count and oldest/newest published_at (undefined when empty), read
   * again only when the file changed: `data_version` moves when another
   * connection (the writer thread, another process) commits; this
   * connection's own writes clear the cache in write(). A query takes one
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
    return terms.sort((a, b) => a.docs - b.docs);
  }

  /** The first `n` candidates after `keyset`: by score on a keyword search, newest first on a browse. */
  candidates(search: PartitionSearch, n: number, keyset?: Keyset): PartitionHit[] {
    const params: Params = { n };
    if (search.match !== undefined) return this.ranked(search, n);
    if (this.browseByPostings(search, n)) {
      const where = conditions(search, params, { keyset, driver: 0 });
      return this.statements
        .get(
          `SELECT a.id, a.published_at, a.rowid FROM postings d CROSS JOIN articles a ON a.rowid = d.article
           WHERE d.term = @t0${and(where)} ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
        )
        .all(params) as PartitionHit[];
    }
    const where = conditions(search, params, { keyset });
    return this.statements
      .get(
        `SELECT a.id, a.published_at, a.rowid FROM articles a INDEXED BY articles_recent
         ${whereClause(where)} ORDER BY a.published_at DESC, a.id DESC LIMIT @n`,
      )
      .all(params) as PartitionHit[];
  }

  /** BM25 top `n`, ties by rowid (newest written first), as the merge across partitions orders them. */
  private ranked(search: PartitionSearch, n: number): PartitionHit[] {
    const params: Params = { n, match: search.match as string };
    const where = conditions(search, params);
    if (where.length > 0) {
      return this.statements
        .get(
          `SELECT a.id, a.published_at, a.rowid, -${BM25} AS score
           FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid
           WHERE articles_fts MATCH @match${and(where)} ORDER BY score DESC, a.rowid DESC LIMIT @n`,
        )
        .all(params) as PartitionHit[];
    }
    // Nothing to check on the article row: rank on the FTS index alone, then read the page's rows.
    const top = this.statements
      .get(
        `SELECT rowid, -${BM25} AS score FROM articles_fts WHERE articles_fts MATCH @match ORDER BY score DESC, rowid DESC LIMIT @n`,
      )
      .all(params) as Array<{ rowid: number; score: number }>;
    if (top.length === 0) return [];
    const rows = this.statements
      .get("SELECT a.rowid, a.id, a.published_at FROM json_each(?) j JOIN articles a ON a.rowid = j.value")
      .all(JSON.stringify(top.map((t) => t.rowid))) as Array<{ rowid: number; id: string; published_at: string }>;
    const byRowid = new Map(rows.map((r) => [r.rowid, r]));
    return top.flatMap((t) => {
      const row = byRowid.get(t.rowid);
      return row ? [{ ...row, score: t.score }] : [];
    });
  }

  /**
   * A browse reads either the recency index, checking each article against the
   * filters, or the rarest filter's postings, sorting them. Scanning wins when
   * matches are dense enough that `n` of them come early.
   */
  private browseByPostings(search: PartitionSearch, n: number): boolean {
    const rarest = search.terms[0];
    if (rarest === undefined) return false;
    const total = Math.max(1, search.articles);
    const density = search.terms.reduce((d, t) => d * Math.min(1, t.docs / total), 1);
    const scanned = Math.min(total, n / Math.max(density, 1 / total));
    const checks = search.terms.length;
    return rarest.docs * (2 + (checks - 1) * 0.5) < scanned * (1 + checks * 0.5);
  }

  /** Exact number of matches. */
  total(search: PartitionSearch): number {
    const params: Params = {};
    if (search.match !== undefined) {
      params.match = search.match;
      const where = conditions(search, params);
      const from =
        where.length === 0
          ? "FROM articles_fts WHERE articles_fts MATCH @match"
          : `FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid WHERE articles_fts MATCH @match${and(where)}`;
      return this.statements.get(`SELECT count(*) ${from}`).pluck().get(params) as number;
    }
    const windowed = search.from !== undefined || search.to !== undefined;
    if (search.terms.length === 0) {
      if (!windowed) return search.articles;
      const where = conditions(search, params);
      return this.statements
        .get(`SELECT count(*) FROM articles a INDEXED BY articles_recent ${whereClause(where)}`)
        .pluck()
        .get(params) as number;
    }
    if (!windowed && search.terms.length === 1) return (search.terms[0] as ResolvedTerm).docs;
    // Without a window, postings alone answer: no article row is read.
    const where = conditions(search, params, { driver: 0, postingsOnly: !windowed });
    const from = windowed ? "postings d CROSS JOIN articles a ON a.rowid = d.article" : "postings d";
    return this.statements
      .get(`SELECT count(*) FROM ${from} WHERE d.term = @t0${and(where)}`)
      .pluck()
      .get(params) as number;
  }

  /**
   * Exact value counts of the fields `codes` over every match in this index:
   * each field's top `depth` values with their spelling, and the number of matches.
   */
  facets(
    search: PartitionSearch,
    codes: readonly number[],
    depth: number,
  ): { total: number; facets: Map<number, PartitionFacet> } {
    if (matchesWholeIndex(search)) {
      // Every article matches: each term's article count is the answer.
      return { total: search.articles, facets: new Map(codes.map((code) => [code, this.wholeIndexFacet(code, depth)])) };
    }
    const params: Params = {};
    const sql = this.matchSet(search, params, "a.terms");
    const counter = new FacetCounter(this.fieldSizes(codes));
    const statement = this.statements.get(sql).pluck();
    let total = 0;
    // all() reads rows faster than iterate(); a window-only browse, which can
    // span the whole index, streams instead to keep memory flat.
    const blobs = (
      search.match !== undefined || search.terms.length > 0 ? statement.all(params) : statement.iterate(params)
    ) as Iterable<Buffer>;
    for (const blob of blobs) {
      counter.add(blob);
      total++;
    }
    const counted = codes.map((code) => [code, counter.result(code, depth)] as const);
    const spelled = this.spellings(counted.flatMap(([, facet]) => facet.top.map((t) => t.id)));
    const facets = new Map<number, PartitionFacet>();
    for (const [code, facet] of counted) {
      facets.set(code, {
        top: facet.top.flatMap(({ id, count }) => {
          const term = spelled.get(id);
          return term ? [{ key: term.key, value: term.value ?? term.key, count }] : [];
        }),
        otherCount: facet.otherCount,
        truncated: facet.truncated,
      });
    }
    return { total, facets };
  }

  /** Per field code, one more than the largest term sequence number in this index. */
  private fieldSizes(codes: readonly number[]): Map<number, number> {
    const max = this.statements.get("SELECT max(id) FROM terms WHERE field = ?").pluck();
    return new Map(codes.map((code) => [code, Math.floor(((max.get(code) as number | null) ?? -1) / 32) + 1]));
  }

  private wholeIndexFacet(code: number, depth: number): PartitionFacet {
    const top = this.statements
      .get(
        "SELECT key, coalesce(value, key) AS value, docs AS count FROM terms WHERE field = ? AND docs > 0 ORDER BY docs DESC, id LIMIT ?",
      )
      .all(code, depth + 1) as PartitionFacet["top"];
    const all = this.statements.get("SELECT coalesce(sum(docs), 0) FROM terms WHERE field = ?").pluck().get(code) as number;
    const truncated = top.length > depth;
    if (truncated) top.pop();
    return { top, otherCount: all - top.reduce((sum, t) => sum + t.count, 0), truncated };
  }

  private spellings(ids: readonly number[]): Map<number, { key: string; value: string | null }> {
    if (ids.length === 0) return new Map();
    const rows = this.statements
      .get("SELECT t.id, t.key, t.value FROM json_each(?) j JOIN terms t ON t.id = j.value")
      .all(JSON.stringify(ids)) as Array<{ id: number; key: string; value: string | null }>;
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** SQL reading `columns` of every match in this index (`a` is the article row). */
  private matchSet(search: PartitionSearch, params: Params, columns: string): string {
    if (search.match !== undefined) {
      params.match = search.match;
      const where = conditions(search, params);
      return `SELECT ${columns} FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid WHERE articles_fts MATCH @match${and(where)}`;
    }
    if (search.terms.length > 0) {
      const where = conditions(search, params, { driver: 0 });
      return `SELECT ${columns} FROM postings d CROSS JOIN articles a ON a.rowid = d.article WHERE d.term = @t0${and(where)}`;
    }
    const where = conditions(search, params);
    return `SELECT ${columns} FROM articles a INDEXED BY articles_recent ${whereClause(where)}`;
  }

  /**
   * Every story with a match in this index, by story id: the newest matching
   * published_at and, on a keyword search, the best member's score. The story
   * is read from each match's doc values, so no document is parsed.
   */
  storyMatches(search: PartitionSearch): Map<string, StoryMatchRow> {
    return this.readStoryMatches(search, undefined);
  }

  /**
   * The `n` stories whose newest member is newest, on a browse of the whole
   * index, and the id of every story in it: the matches are read newest first
   * and only until `n` stories are met, and the ids come from the story terms
   * (those with members), so a month is not read article by article.
   * Undefined when the search does not cover the whole index unfiltered.
   */
  newestStories(search: PartitionSearch, n: number): { newest: Map<string, StoryMatchRow>; all: string[] } | undefined {
    if (!matchesWholeIndex(search)) return undefined;
    const all = this.statements
      .get("SELECT coalesce(nullif(value, ''), key) FROM terms WHERE field = ? AND docs > 0")
      .pluck()
      .all(FILTER_FIELDS.story_id.code) as string[];
    return { newest: this.readStoryMatches(search, n), all };
  }

  /** Stories of the matches, by story id; with `newestN`, read newest first and only until that many are met. */
  private readStoryMatches(search: PartitionSearch, newestN: number | undefined): Map<string, StoryMatchRow> {
    const params: Params = {};
    const columns = search.match === undefined ? "a.terms, a.published_at" : `a.terms, a.published_at, -${BM25} AS score`;
    const code = FILTER_FIELDS.story_id.code;
    const byTerm = new Map<number, StoryMatchRow>();
    const order = newestN === undefined ? "" : " ORDER BY a.published_at DESC, a.id DESC";
    // Streamed as arrays: a browse over a whole month reads every article once.
    const rows = this.statements
      .get(this.matchSet(search, params, columns) + order)
      .raw()
      .iterate(params) as Iterable<[Buffer, string, number?]>;
    // With `newestN`: the published_at at which the n-th story was met. Stories tied with it are read too, so the
    // caller's tie-break (by story id) chooses among all of them.
    let boundary: string | undefined;
    for (const [terms, published_at, score] of rows) {
      // Leaving the loop ends the statement's iteration.
      if (boundary !== undefined && published_at < boundary) break;
      const term = storyTermOf(asUint32(terms), code);
      if (term === undefined) continue;
      const seen = byTerm.get(term);
      if (seen === undefined) {
        byTerm.set(term, score === undefined ? { newest: published_at } : { newest: published_at, score });
        if (byTerm.size === newestN) boundary = published_at;
        continue;
      }
      if (published_at > seen.newest) seen.newest = published_at;
      if (score !== undefined && (seen.score === undefined || score > seen.score)) seen.score = score;
    }
    const spelled = this.spellings([...byTerm.keys()]);
    const stories = new Map<string, StoryMatchRow>();
    for (const [term, match] of byTerm) {
      const spelling = spelled.get(term);
      if (spelling) stories.set(spelling.value || spelling.key, match);
    }
    return stories;
  }

  /**
   * The publisher of every member of the given stories published at or after
   * `from`. CROSS JOIN keeps the id list outermost: left to itself the planner
   * walks every story term and probes the list for each.
   */
  storySources(storyIds: readonly string[], from: string | undefined): Array<{ story: string; source: string | null }> {
    return this.statements
      .get(
        `SELECT coalesce(nullif(t.value, ''), t.key) AS story, a.source
         FROM json_each(@keys) j CROSS JOIN terms t ON t.field = @code AND t.key = j.value
         JOIN postings p ON p.term = t.id JOIN articles a ON a.rowid = p.article
         WHERE @from IS NULL OR a.published_at >= @from`,
      )
      .all({
        keys: JSON.stringify([...new Set(storyIds.map(foldValue))]),
        code: FILTER_FIELDS.story_id.code,
        from: from ?? null,
      }) as Array<{ story: string; source: string | null }>;
  }

  /** The members of a story (its story_id term) within a window, as a story's counts need them. */
  storyMembers(storyId: string, from: string | undefined, to: string | undefined): StoryMemberRow[] {
    const term = this.statements
      .get("SELECT id FROM terms WHERE field = ? AND key = ?")
      .pluck()
      .get(FILTER_FIELDS.story_id.code, foldValue(storyId)) as number | undefined;
    if (term === undefined) return [];
    return this.statements
      .get(
        `SELECT a.id, json_extract(d.doc, '$.title') AS title, json_extract(d.doc, '$.url') AS url,
                json_extract(d.doc, '$.source') AS source, a.published_at
         FROM postings p JOIN articles a ON a.rowid = p.article JOIN docs d ON d.rowid = a.rowid
         WHERE p.term = @term AND (@from IS NULL OR a.published_at >= @from) AND (@to IS NULL OR a.published_at <= @to)`,
      )
      .all({ term, from: from ?? null, to: to ?? null }) as StoryMemberRow[];
  }

  /** The story an article belongs to now; undefined when the article is not here. */
  storyOf(articleId: string): string | undefined {
    return this.statements
      .get("SELECT json_extract(d.doc, '$.story_id') FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?")
      .pluck()
      .get(articleId) as string | undefined;
  }

  /**
   * Moves articles to another story, everywhere the story id lives: the
   * story_id term (postings and counts), the article's doc values, its stored
   * JSON. One transaction; returns how many articles moved.
   */
  relabel(storyId: string, articleIds: readonly string[]): number {
    const code = FILTER_FIELDS.story_id.code;
    const key = foldValue(storyId);
    const row = this.statements.get(
      "SELECT a.rowid, a.terms, json_extract(d.doc, '$.story_id') AS story FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?",
    );
    const termOf = this.statements.get("SELECT id FROM terms WHERE field = ? AND key = ?").pluck();
    const dropPosting = this.statements.get("DELETE FROM postings WHERE term = ? AND article = ?");
    const addPosting = this.statements.get("INSERT OR IGNORE INTO postings (term, article) VALUES (?, ?)");
    const setTerms = this.statements.get("UPDATE articles SET terms = ? WHERE rowid = ?");
    const setDoc = this.statements.get("UPDATE docs SET doc = json_set(doc, '$.story_id', ?) WHERE rowid = ?");
    const terms = this.writer();
    const run = this.db.transaction(() => {
      terms.begin();
      let moved = 0;
      for (const articleId of articleIds) {
        const current = row.get(articleId) as { rowid: number; terms: Buffer; story: string | null } | undefined;
        if (current === undefined || current.story === storyId) continue;
        const ids = new Uint32Array(Uint8Array.prototype.slice.call(current.terms).buffer);
        const old = current.story === null ? undefined : (termOf.get(code, foldValue(current.story)) as number | undefined);
        const next = terms.idOf(code, key, storyId === key ? "" : storyId);
        if (old !== undefined) {
          dropPosting.run(old, current.rowid);
          terms.release(old);
        }
        addPosting.run(next, current.rowid);
        const at = old === undefined ? -1 : ids.indexOf(old);
        const updated = at >= 0 ? ids : Uint32Array.from([...ids, next]);
        if (at >= 0) updated[at] = next;
        setTerms.run(Buffer.from(updated.buffer), current.rowid);
        setDoc.run(storyId, current.rowid);
        moved++;
      }
      terms.commit();
      return moved;
    });
    return this.writing(run);
  }

  getDoc(id: string): string | undefined {
    return this.statements.get("SELECT d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?").pluck().get(id) as
      string | undefined;
  }

  /** Documents of a page of ids, by id. */
  getDocs(ids: readonly string[]): Map<string, string> {
    const rows = this.statements
      .get("SELECT a.id, d.doc FROM json_each(?) j JOIN articles a ON a.id = j.value JOIN docs d ON d.rowid = a.rowid")
      .all(JSON.stringify(ids)) as Array<{ id: string; doc: string }>;
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  close(): void {
    this.db.close();
  }
}

/** The article's story_id term among its term ids (term ids are seq * 32 + field code). */
function storyTermOf(ids: Uint32Array, code: number): number | undefined {
  for (let i = 0; i < ids.length; i++) if (((ids[i] as number) & 31) === code) return ids[i];
  return undefined;
}
