import Database from "better-sqlite3";
import { StatementCache } from "./statement-cache.js";
import type { ArticleDetail } from "../../domain/article.js";
import { entityValuesOf } from "../../domain/entity-fields.js";
import type { ArticleFilters, ArticleQuery } from "../../domain/search-query.js";
import { toFtsMatch } from "./fts-match.js";

// One monthly index: a SQLite file holding the articles collected in one
// calendar month (UTC). FTS5 ranks titles and entity names with BM25; columns
// and a side table carry the exact-match filters and facets.

const SCHEMA_VERSION = "1";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS articles (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  published_at TEXT NOT NULL,
  collected_at TEXT NOT NULL,
  source TEXT COLLATE NOCASE,
  source_type TEXT,
  language TEXT COLLATE NOCASE,
  publisher_country TEXT COLLATE NOCASE,
  story_id TEXT,
  doc TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS articles_recent ON articles (published_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS articles_source ON articles (source, published_at DESC);
CREATE INDEX IF NOT EXISTS articles_language ON articles (language, published_at DESC);
CREATE INDEX IF NOT EXISTS articles_publisher_country ON articles (publisher_country, published_at DESC);
CREATE INDEX IF NOT EXISTS articles_source_type ON articles (source_type, published_at DESC);
CREATE INDEX IF NOT EXISTS articles_story ON articles (story_id);
-- Multi-valued exact-match fields (domain/entity-fields.ts codes): filter by
-- (field, value) and facet by (article, field).
CREATE TABLE IF NOT EXISTS article_values (
  field INTEGER NOT NULL,
  value TEXT NOT NULL COLLATE NOCASE,
  article INTEGER NOT NULL,
  PRIMARY KEY (field, value, article)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS article_values_by_article ON article_values (article, field);
-- Contentless: the text lives in articles.doc; the FTS index keeps only postings.
CREATE VIRTUAL TABLE IF NOT EXISTS articles_fts USING fts5(
  title, entities, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/** BM25 column weights: a title hit counts more than an entity-name hit. */
const BM25 = "bm25(articles_fts, 10.0, 1.0)";

/** A ranking candidate: enough to merge partitions; the document is loaded only for the returned page. */
export interface PartitionHit {
  id: string;
  published_at: string;
  score?: number;
}

export class ArticlePartition {
  readonly month: string;
  private readonly db: Database.Database;
  private readonly statements: StatementCache;

  constructor(month: string, path: string, options: { create: boolean }) {
    this.month = month;
    this.db = new Database(path, { fileMustExist: !options.create });
    this.statements = new StatementCache(this.db);
    try {
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
      this.db.pragma("busy_timeout = 2000");
      if (options.create) this.db.exec(SCHEMA);
      const version = this.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
      if (version === undefined && options.create) {
        this.db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?), ('month', ?)").run(SCHEMA_VERSION, month);
      } else if (version !== SCHEMA_VERSION) {
        throw new Error(`index ${month} has schema version ${String(version)}, expected ${SCHEMA_VERSION}`);
      }
    } catch (error) {
      this.db.close();
      throw error;
    }
  }

  /** Inserts the articles not yet present, in one transaction; returns how many were new. */
  write(articles: readonly ArticleDetail[]): number {
    const insertArticle = this.statements.get(
      `INSERT INTO articles (id, published_at, collected_at, source, source_type, language, publisher_country, story_id, doc)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    );
    const insertFts = this.statements.get("INSERT INTO articles_fts (rowid, title, entities) VALUES (?, ?, ?)");
    const insertValue = this.statements.get("INSERT OR IGNORE INTO article_values (field, value, article) VALUES (?, ?, ?)");
    return this.db.transaction(() => {
      let inserted = 0;
      for (const a of articles) {
        const result = insertArticle.run(
          a.id,
          a.published_at ?? a.collected_at,
          a.collected_at,
          a.source,
          a.source_type,
          a.language,
          a.publisher_country,
          a.story_id,
          JSON.stringify(a),
        );
        if (result.changes === 0) continue;
        inserted++;
        const rowid = result.lastInsertRowid;
        insertFts.run(rowid, a.title ?? "", entityText(a));
        for (const [field, value] of entityValuesOf(a)) insertValue.run(field, value, rowid);
      }
      return inserted;
    })();
  }

  /** Ranked (keyword) or newest-first (browse) candidates: the first `n` of this partition, and its total. */
  search(query: ArticleQuery, n: number): { hits: PartitionHit[]; total: number } {
    const { where, params } = filterClause(query.filters);
    if (query.keywords) {
      const match = toFtsMatch(query.keywords);
      const from = "FROM articles_fts JOIN articles a ON a.rowid = articles_fts.rowid";
      const cond = `articles_fts MATCH @match${where ? ` AND ${where}` : ""}`;
      const hits = this.statements
        .get(
          `SELECT a.id, a.published_at, -${BM25} AS score ${from} WHERE ${cond}
         ORDER BY score DESC, a.published_at DESC, a.id DESC LIMIT @n`,
        )
        .all({ ...params, match, n }) as PartitionHit[];
      const total = this.statements
        .get(`SELECT count(*) ${from} WHERE ${cond}`)
        .pluck()
        .get({ ...params, match }) as number;
      return { hits, total };
    }
    const cond = where ? `WHERE ${where}` : "";
    const hits = this.statements
      .get(`SELECT a.id, a.published_at FROM articles a ${cond} ORDER BY a.published_at DESC, a.id DESC LIMIT @n`)
      .all({ ...params, n }) as PartitionHit[];
    const total = this.statements.get(`SELECT count(*) FROM articles a ${cond}`).pluck().get(params) as number;
    return { hits, total };
  }

  getDoc(id: string): string | undefined {
    return this.statements.get("SELECT doc FROM articles WHERE id = ?").pluck().get(id) as string | undefined;
  }

  /** Documents of a page of ids, by id. */
  getDocs(ids: readonly string[]): Map<string, string> {
    const rows = this.statements
      .get("SELECT a.id, a.doc FROM articles a JOIN json_each(?) j ON a.id = j.value")
      .all(JSON.stringify(ids)) as Array<{
      id: string;
      doc: string;
    }>;
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  count(): number {
    return this.statements.get("SELECT count(*) FROM articles").pluck().get() as number;
  }

  close(): void {
    this.db.close();
  }
}

/** Persons, organizations and other names, once each, for the FTS `entities` column. */
function entityText(a: ArticleDetail): string {
  const seen = new Set<string>();
  for (const value of [...a.persons, ...a.organizations, ...a.names]) seen.add(value.toLowerCase());
  return [...seen].join(" ; ");
}

const COLUMN_FILTERS = ["source", "source_type", "language", "publisher_country"] as const;

function filterClause(filters: ArticleFilters): { where: string; params: Record<string, string> } {
  const parts: string[] = [];
  const params: Record<string, string> = {};
  for (const column of COLUMN_FILTERS) {
    const value = filters[column];
    if (value === undefined) continue;
    parts.push(`a.${column} = @${column}`);
    params[column] = value;
  }
  if (filters.from !== undefined) {
    parts.push("a.published_at >= @from");
    params.from = filters.from;
  }
  if (filters.to !== undefined) {
    parts.push("a.published_at <= @to");
    params.to = filters.to;
  }
  return { where: parts.join(" AND "), params };
}
