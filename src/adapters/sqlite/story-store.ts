import type Database from "better-sqlite3";
import { CLUSTERING_VERSION } from "../../domain/stories/same-story.js";
import type { StoryFeatures } from "../../domain/stories/story-features.js";
import { indexKeys, lookupKeys } from "../../domain/stories/story-keys.js";
import type { StoryCandidate, StoryStore } from "../../ports/story-store.js";
import { dayOf, daysBetween, DAY_MS, HeldArticles, type HeldDaySource } from "../held-articles.js";
import { OtherClusteringVersionError } from "../clustering-version.js";
import { openDatabase } from "./open-database.js";
import { StatementCache } from "./statement-cache.js";
import { DeflatedJson } from "./deflated-json.js";
import { FEATURES_DICTIONARY } from "./features-dictionary.js";
import { warnRecovered } from "../../shared/caught.js";

// stories.db: each clustered article's features and story, plus a key index
// (headline words and persons: story-keys.ts) bucketed by publication day, so
// candidates are found by counting shared keys rather than by scanning.
//
// Ingest asks for candidates around the time it is at, so the days it asks
// about are also held in memory (every article of a held day, parsed, with a
// key index and its story): counting shared keys there is cheap, candidates
// come back without parsing JSON, and storyOf needs no query. A lookup whose
// days hold more than MAX_HELD_ARTICLES counts in SQL instead. Writes go to
// SQLite and to the held days alike; a commit by another connection (PRAGMA
// data_version) drops what is held. Writes are committed together once the
// caller yields to the event loop (ingest clusters a whole batch between two
// yields): a commit per article cost more than the clustering itself.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS story_articles (
  id TEXT PRIMARY KEY,
  story TEXT NOT NULL,
  time_ms INTEGER NOT NULL,
  -- Deflated JSON (FEATURES); a file written before holds its rows' JSON as text, read as it is.
  features BLOB NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS story_articles_story ON story_articles (story);
-- Each article's keys (story-keys.ts): its headline words and, since stories-v4, person keys.
CREATE TABLE IF NOT EXISTS story_words (
  word TEXT NOT NULL,
  day INTEGER NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (day, word, id)
) WITHOUT ROWID;
`;

/** Loads a day's articles into memory. Created once the file is known to be of this clustering version. */
const TIME_INDEX = "CREATE INDEX IF NOT EXISTS story_articles_time ON story_articles (time_ms)";

/** Stored features: about a third of their JSON. */
const FEATURES = new DeflatedJson(FEATURES_DICTIONARY);

/** At most this many articles are held in memory (about 2 KB each); a lookup needing more counts in SQL. */
const MAX_HELD_ARTICLES = 100_000;

export class SqliteStoryStore implements StoryStore {
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly held = new HeldArticles();
  /**
   * The article added last, not yet written: most articles join a story right away, and are then written once, in
   * it, instead of written and moved. `alone` while its story has no other member.
   */
  private pending: { features: StoryFeatures; json: string; story: string; alone: boolean; slot: number | undefined } | undefined;
  /** The last id `has` found absent: `add` of it needs no second look. */
  private absent: string | undefined;
  private dataVersion = 0;
  private commitScheduled = false;
  /** The shared write transaction is open (tracked here: asking SQLite costs a native call per store call). */
  private writing = false;
  /** A deferred commit that failed: reported by the next call. */
  private failure: unknown;

  /** `maxHeldArticles`: how many articles may be held in memory (0: every lookup in SQL). */
  constructor(
    path: string,
    private readonly maxHeldArticles = MAX_HELD_ARTICLES,
  ) {
    this.db = openDatabase(path);
    this.db.exec(SCHEMA);
    this.statements = new StatementCache(this.db);
    const version = this.clusteringVersion();
    if (version !== undefined && version !== CLUSTERING_VERSION) {
      this.db.close();
      throw new OtherClusteringVersionError(path, version, "Ingest into a new data directory to re-cluster");
    }
    if (version === undefined)
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('clustering_version', ?)").run(CLUSTERING_VERSION);
    this.db.exec(TIME_INDEX);
    // Ingest's working set: the indexes' pages of the days being clustered.
    this.db.pragma("cache_size = -65536");
    this.dataVersion = this.readDataVersion();
  }

  /** The version recorded in the file; a file from before versions were recorded holds stories-v1 clusters. */
  private clusteringVersion(): string | undefined {
    const recorded = this.db.prepare("SELECT value FROM meta WHERE key = 'clustering_version'").pluck().get() as
      string | undefined;
    if (recorded !== undefined) return recorded;
    return this.db.prepare("SELECT 1 FROM story_articles LIMIT 1").get() === undefined ? undefined : "stories-v1";
  }

  async has(articleId: string): Promise<boolean> {
    this.check();
    if (this.held.slotOf(articleId) !== undefined || this.pending?.features.id === articleId) return true;
    const found = this.statements.get("SELECT 1 FROM story_articles WHERE id = ?").get(articleId) !== undefined;
    this.absent = found ? undefined : articleId;
    return found;
  }

  /** The features returned are shared with the store: read them, do not change them. */
  async candidates(features: StoryFeatures, windowMs: number, minSharedKeys: number): Promise<StoryCandidate[]> {
    this.check();
    const keys = lookupKeys(features);
    if (keys.length < minSharedKeys) return [];
    const first = dayOf(features.timeMs - windowMs);
    const last = dayOf(features.timeMs + windowMs);
    if (!(await this.held.hold(daysBetween(first, last), this.maxHeldArticles, this.daySource)))
      return this.candidatesInSql(features, keys, windowMs, minSharedKeys, first, last);
    return this.held.candidates(features, keys, windowMs, minSharedKeys, first, last);
  }

  private candidatesInSql(
    features: StoryFeatures,
    keys: readonly string[],
    windowMs: number,
    minSharedKeys: number,
    first: number,
    last: number,
  ): StoryCandidate[] {
    this.flush();
    const rows = this.statements
      .get(
        `SELECT a.features, a.story FROM (
           SELECT id FROM story_words
           WHERE day IN (SELECT value FROM json_each(@days)) AND word IN (SELECT value FROM json_each(@keys))
           GROUP BY id HAVING count(*) >= @min
         ) c JOIN story_articles a ON a.id = c.id
         WHERE a.time_ms BETWEEN @from AND @to`,
      )
      .all({
        keys: JSON.stringify(keys),
        days: JSON.stringify(daysBetween(first, last)),
        min: minSharedKeys,
        from: features.timeMs - windowMs,
        to: features.timeMs + windowMs,
      }) as Array<{ features: Buffer | string; story: string }>;
    return rows.map((row) => ({ features: JSON.parse(FEATURES.decode(row.features)) as StoryFeatures, story: row.story }));
  }

  /** Held days are loaded from the file, once the pending article is written. */
  private readonly daySource: HeldDaySource = {
    count: (days) => {
      this.flush();
      const count = this.statements.get("SELECT count(*) FROM story_articles WHERE time_ms >= ? AND time_ms < ?").pluck();
      return days.reduce((sum, day) => sum + (count.get(day * DAY_MS, (day + 1) * DAY_MS) as number), 0);
    },
    rows: (days) => this.dayRows(days),
  };

  private *dayRows(days: readonly number[]): Iterable<{ story: string; features: string }> {
    const rows = this.statements.get("SELECT story, features FROM story_articles WHERE time_ms >= ? AND time_ms < ?");
    for (const day of days)
      for (const row of rows.iterate(day * DAY_MS, (day + 1) * DAY_MS) as Iterable<{ story: string; features: Buffer | string }>)
        yield { story: row.story, features: FEATURES.decode(row.features) };
  }

  async add(features: StoryFeatures): Promise<void> {
    this.throwFailure();
    this.flush();
    const absent = this.absent === features.id;
    this.absent = undefined;
    // An article already recorded keeps its story.
    if (!absent && (await this.has(features.id))) return;
    const json = JSON.stringify(features);
    const day = this.held.day(dayOf(features.timeMs));
    // Held as a copy of its own: the caller's strings may be slices of far larger ones (a whole GKG line) and would
    // keep them alive.
    const slot = day === undefined ? undefined : this.held.add(day, JSON.parse(json) as StoryFeatures, features.id);
    this.pending = { features, json, story: features.id, alone: true, slot };
    this.scheduleCommit();
  }

  /** Writes the pending article. */
  private flush(): void {
    const pending = this.pending;
    if (pending === undefined) return;
    this.pending = undefined;
    const { features, json, story } = pending;
    this.write(() => {
      this.statements
        .get("INSERT OR IGNORE INTO story_articles (id, story, time_ms, features) VALUES (?, ?, ?, ?)")
        .run(features.id, story, features.timeMs, FEATURES.encode(json));
      this.statements
        .get("INSERT OR IGNORE INTO story_words (word, day, id) SELECT value, ?, ? FROM json_each(?)")
        .run(dayOf(features.timeMs), features.id, JSON.stringify(indexKeys(features)));
    });
  }

  async storyOf(articleId: string): Promise<string> {
    this.throwFailure();
    const slot = this.held.slotOf(articleId);
    if (slot !== undefined) return this.held.story(slot);
    if (this.pending?.features.id === articleId) return this.pending.story;
    const story = this.statements.get("SELECT story FROM story_articles WHERE id = ?").pluck().get(articleId) as
      string | undefined;
    if (story === undefined) throw new Error(`article ${articleId} is not clustered`);
    return story;
  }

  async merge(storyA: string, storyB: string): Promise<{ story: string; moved: string[] }> {
    this.throwFailure();
    if (storyA === storyB) return { story: storyA, moved: [] };
    const [story, absorbed] = storyA < storyB ? [storyA, storyB] : [storyB, storyA];
    const pending = this.pending;
    if (pending !== undefined && pending.alone && pending.story === absorbed) {
      // The article just added joins a story: it will be written in it.
      pending.story = story;
      pending.alone = false;
      if (pending.slot !== undefined) this.held.setStory(pending.slot, story);
      return { story, moved: [pending.features.id] };
    }
    const moved = await this.members(absorbed);
    this.write(() => this.statements.get("UPDATE story_articles SET story = ? WHERE story = ?").run(story, absorbed));
    for (const id of moved) {
      const slot = this.held.slotOf(id);
      if (slot !== undefined) this.held.setStory(slot, story);
    }
    return { story, moved };
  }

  async members(story: string): Promise<string[]> {
    this.check();
    this.flush();
    return this.statements.get("SELECT id FROM story_articles WHERE story = ? ORDER BY id").pluck().all(story) as string[];
  }

  /** The batch's writes are committed together once the caller yields (see above): nothing to read ahead in a local file. */
  async clusterBatch<T>(_batch: readonly StoryFeatures[], work: () => Promise<T>): Promise<T> {
    return work();
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.commit();
    this.db.close();
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * Runs `statements` in the shared write transaction, opening it if none is open; it commits when the caller
   * next yields. A failure rolls the whole transaction back, so no article is left half written.
   */
  private write<T>(statements: () => T): T {
    if (!this.writing) {
      this.db.exec("BEGIN");
      this.writing = true;
    }
    this.scheduleCommit();
    try {
      return statements();
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  private scheduleCommit(): void {
    if (this.commitScheduled) return;
    this.commitScheduled = true;
    setImmediate(() => {
      this.commitScheduled = false;
      this.commit();
    });
  }

  private commit(): void {
    if (!this.db.open) return;
    try {
      this.flush();
      if (!this.writing) return;
      this.db.exec("COMMIT");
      this.writing = false;
    } catch (error) {
      this.failure = error;
      try {
        this.rollback();
      } catch (rollbackError) {
        // The commit's failure is the one reported; the rollback's is said beside it.
        warnRecovered("rolling back stories.db after a failed commit", rollbackError);
      }
    }
  }

  /** Drops the open transaction and what is held: it may be ahead of the file. */
  private rollback(): void {
    this.forget();
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    this.writing = false;
  }

  /** Reports a failed commit; drops what is held when another connection has committed since the last check. */
  private check(): void {
    this.throwFailure();
    if (this.writing) return;
    const version = this.readDataVersion();
    if (version !== this.dataVersion) {
      this.dataVersion = version;
      this.forget();
    }
  }

  private throwFailure(): void {
    if (this.failure === undefined) return;
    const failure = this.failure;
    this.failure = undefined;
    throw failure;
  }

  private readDataVersion(): number {
    return this.statements.get("PRAGMA data_version").pluck().get() as number;
  }

  private forget(): void {
    this.held.clear();
    if (this.pending !== undefined) this.pending.slot = undefined;
  }
}
