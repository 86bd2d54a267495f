// The layout of one monthly index (a SQLite file). Bump SCHEMA_VERSION on any
// change: a file of another version is not read (see README, "Operate it").
//
//   articles   one narrow row per article: id, published_at, the single-valued
//              filter fields (folded, so a filter is a plain comparison on a row
//              already read) and `terms`, the ids of every filter value the
//              article carries (doc values: facets count them)
//   docs       the article as JSON, deflated with a preset dictionary
//              (doc-codec.ts), read only for the page returned
//   terms      every distinct (field, folded value): its spelling as first seen
//              and how many articles carry it. Term ids are seq * 32 + field code,
//              with a sequence per field, so a facet can count a field's values
//              in a dense array indexed by seq
//   postings   (term, article): the inverted index filters are driven by
//   articles_fts  FTS5 over titles and entity names, ranked with BM25
//   stories, story_sources, story_headlines
//              story sizes kept as articles are written and relabelled, so a
//              listing by size reads one row per story, never its members: per
//              story (its story_id term, whose `docs` is its article count
//              here) the distinct publishers, its newest member, and how many
//              members carry each publisher and each normalised headline

export const SCHEMA_VERSION = "4";

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS articles (
  rowid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  published_at TEXT NOT NULL,
  source TEXT,
  source_type TEXT,
  publisher_country TEXT,
  language TEXT,
  terms BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS articles_recent ON articles (published_at DESC, id DESC);
CREATE TABLE IF NOT EXISTS docs (rowid INTEGER PRIMARY KEY, doc BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS terms (
  id INTEGER PRIMARY KEY,
  field INTEGER NOT NULL,
  key TEXT NOT NULL,
  value TEXT,
  docs INTEGER NOT NULL,
  UNIQUE (field, key)
);
CREATE INDEX IF NOT EXISTS terms_by_field ON terms (field, id);
CREATE TABLE IF NOT EXISTS postings (
  term INTEGER NOT NULL,
  article INTEGER NOT NULL,
  PRIMARY KEY (term, article)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stories (
  story INTEGER PRIMARY KEY,
  outlets INTEGER NOT NULL,
  newest TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS story_sources (
  story INTEGER NOT NULL,
  source INTEGER NOT NULL,
  articles INTEGER NOT NULL,
  PRIMARY KEY (story, source)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS story_headlines (
  story INTEGER NOT NULL,
  headline TEXT NOT NULL,
  articles INTEGER NOT NULL,
  PRIMARY KEY (story, headline)
) WITHOUT ROWID;
-- Contentless: the text lives in docs; the FTS index keeps only postings.
CREATE VIRTUAL TABLE IF NOT EXISTS articles_fts USING fts5(
  title, entities, content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2'
);
`;

/**
 * Derived data (DESIGN.md "Derived vocabularies"), created idempotently in any
 * index a writer opens, whatever version of the vocabularies it was built with:
 *
 *   signal_values  each signal an article carries (signals-v1 code = its
 *                  position in the table) with its intensity: signal range
 *                  filters probe it by article, percentiles read it by value
 *   places         the coordinates of each mentioned city (geo-v1): `near`
 *                  and `bbox` check candidates against them
 *   amounts        each amount whose number parses, with its object folded
 *                  (amounts-v1): `amount_min`/`amount_max` check candidates
 *
 * The vocabularies an index holds for every article are listed in its `meta`
 * row `derived_fields` (DERIVED_FIELDS_BUILT): set when the index is created,
 * or by `newsindex reindex` once it has rebuilt them. An index without one of
 * them answers a filter needing it with `coverage: field_unavailable`.
 */
export const DERIVED_SCHEMA = `
CREATE TABLE IF NOT EXISTS signal_values (
  article INTEGER NOT NULL,
  signal INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (article, signal)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS signal_values_by_value ON signal_values (signal, value);
CREATE TABLE IF NOT EXISTS places (
  article INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  latitude REAL NOT NULL,
  longitude REAL NOT NULL,
  PRIMARY KEY (article, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS amounts (
  article INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  number REAL NOT NULL,
  object TEXT NOT NULL,
  PRIMARY KEY (article, seq)
) WITHOUT ROWID;
`;

/**
 * Time tallies (time-tally.ts), created idempotently in any index a writer
 * opens and kept by every write and relabel, so a series with no filter but its
 * window reads one row per bucket instead of the articles:
 *
 *   tallies        per span (`d` + YYYYMMDD, a UTC day of published_at, or
 *                  `h` + YYYYMMDDHH, an hour) its articles, distinct stories,
 *                  distinct publishers, first and last published_at
 *   tally_stories  per span, each story_id term among its articles and how
 *                  many of them it holds (a story's count falls to zero and its
 *                  row goes when a relabel moves its last article out)
 *   tally_outlets  per span, each source term and how many articles it holds
 *
 * A bucket made of several spans (a week, a month, a window's edge) counts its
 * distinct stories and publishers over the member rows of its spans. The meta
 * row `tallies` says they were built for every article: an index written before
 * them gets them when a writer first opens it (or by `newsindex reindex`), and
 * is read from its articles until then.
 */
export const TALLY_SCHEMA = `
CREATE TABLE IF NOT EXISTS tallies (
  span TEXT PRIMARY KEY,
  articles INTEGER NOT NULL,
  stories INTEGER NOT NULL,
  outlets INTEGER NOT NULL,
  first TEXT,
  last TEXT
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tally_stories (
  span TEXT NOT NULL,
  story INTEGER NOT NULL,
  articles INTEGER NOT NULL,
  PRIMARY KEY (span, story)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tally_outlets (
  span TEXT NOT NULL,
  source INTEGER NOT NULL,
  articles INTEGER NOT NULL,
  PRIMARY KEY (span, source)
) WITHOUT ROWID;
`;

/** The `meta` value of `tallies` once every article of an index is counted in them. */
export const TALLIES_BUILT = "v1";

/** The derived vocabularies this version writes, as the `derived_fields` meta value lists them. */
export const DERIVED_FIELDS_BUILT = ["signals-v1", "events-v1", "geo-v1", "amounts-v1"] as const;
export type DerivedVocabulary = (typeof DERIVED_FIELDS_BUILT)[number];

/**
 * What `newsindex reindex` rebuilds from an index's stored articles. Not
 * signals-v1: it is computed from the GKG record's GCAM counts, which the index
 * does not keep (a month built before it answers signal filters with
 * `field_unavailable` until its files are ingested into a new data dir).
 */
export const REBUILDABLE: readonly DerivedVocabulary[] = ["events-v1", "geo-v1", "amounts-v1"];

/** Filter fields that are also columns of `articles` (folded values). */
export const COLUMN_FIELDS = ["source", "source_type", "publisher_country", "language"] as const;
