import pg from "pg";
import { CLUSTERING_VERSION, STORY_WINDOW_MS } from "../../domain/stories/same-story.js";
import type { StoryFeatures } from "../../domain/stories/story-features.js";
import { indexKeys, lookupKeys, MIN_SHARED_KEYS } from "../../domain/stories/story-keys.js";
import type { StoryCandidate, StoryStore } from "../../ports/story-store.js";
import { OtherClusteringVersionError } from "../clustering-version.js";
import { dayOf, daysBetween, HeldArticles, type HeldDaySource } from "../held-articles.js";
import { schemaLockSql } from "./schema-lock.js";

// The story clustering state in PostgreSQL, beside the control store's tables
// (same database and schema), so whichever process leads ingest next reads the
// stories the last one left and an API replica keeps none of it. PostgreSQL
// rather than OpenSearch: a merge relabels every member of a story in one
// transaction, candidates must be exhaustive (an exact count of shared keys,
// read right after the previous batch's writes, which OpenSearch only offers
// after a refresh and with approximate aggregations), and the control store's
// database is already there.
//
// A round trip per article would bound ingest far below GDELT's rate, so a
// batch (clusterBatch) is one transaction: it reads at its start which of its
// articles are clustered already and loads the publication days its articles
// look around into memory (held-articles.ts, as the SQLite store does), then
// clusters in memory, and writes its new articles in two multi-row statements
// at the end. Only a merge of two stories both older than the batch costs a
// round trip (the relabelling UPDATE). When the days a batch looks around hold
// more articles than may be held (GDELT's full rate is 100,000 or more a day),
// one statement counts every batch article's shared keys with the written
// ones instead, and the batch's own are matched in memory. Batches of concurrent ingests take turns
// on a transaction-scoped advisory lock, and each commit bumps a generation
// number: a store that sees another's commit drops what it holds.

/** At most this many articles are held in memory (about 2 KB each); a lookup needing more counts in SQL. */
const MAX_HELD_ARTICLES = 100_000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** An article added in the open transaction and not yet written. */
interface Unwritten {
  features: StoryFeatures;
  json: string;
  story: string;
}

/** What a batch read ahead: which of its articles were clustered before, and in which story. */
interface ReadAhead {
  asked: Set<string>;
  known: Map<string, string>;
  /** When its days hold more articles than may be held: its articles' candidates, found in one statement. */
  found?: FoundAhead;
}

/**
 * Each batch article's candidates among the articles written before the batch (their features, and their story as
 * the batch's merges change it), and the batch's own articles as they are added, with a key index of their own.
 */
interface FoundAhead {
  of: Map<string, string[]>;
  features: Map<string, StoryFeatures>;
  story: Map<string, string>;
  added: HeldArticles;
}

export class PostgresStoryStore implements StoryStore {
  private readonly pool: pg.Pool;
  private readonly s: string;
  private readonly held = new HeldArticles();
  /** The commit generation what is held reflects; undefined: nothing held is trusted. */
  private generation: string | undefined;
  /** The open transaction's connection, while a batch (or a single call) runs. */
  private db: pg.PoolClient | undefined;
  private readAhead: ReadAhead | undefined;
  private readonly unwritten = new Map<string, Unwritten>();
  /** The unwritten articles of each story. */
  private readonly unwrittenOf = new Map<string, Set<string>>();
  /** Articles first clustered in the open transaction. */
  private readonly bornHere = new Set<string>();
  /** Stories that written rows of the open transaction are in (by insert or by merge). */
  private readonly written = new Set<string>();
  private wrote = false;

  private constructor(
    url: string,
    schema: string,
    private readonly maxHeldArticles: number,
  ) {
    this.pool = new pg.Pool({ connectionString: url, max: 1 });
    // An idle connection lost (a server restart): the pool connects anew on the next call, which reports a failure.
    this.pool.on("error", () => undefined);
    this.s = schema;
  }

  /**
   * Opens the state in `schema` (created when missing), refusing state of another clustering version.
   * `maxHeldArticles`: how many articles may be held in memory (0: every lookup in SQL).
   */
  static async open(url: string, schema = "newsindex", maxHeldArticles = MAX_HELD_ARTICLES): Promise<PostgresStoryStore> {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
    const store = new PostgresStoryStore(url, schema, maxHeldArticles);
    try {
      await store.migrate();
    } catch (error) {
      await store.pool.end();
      throw error;
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const s = this.s;
    const db = await this.pool.connect();
    try {
      await db.query("BEGIN");
      // Concurrent CREATE ... IF NOT EXISTS can still collide: starting processes, and the control store creating the
      // same schema, take turns.
      await db.query(schemaLockSql(s));
      await db.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await this.createTables(db);
      const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${s}.story_meta WHERE key = 'clustering_version'`);
      const version = rows[0]?.value;
      if (version !== undefined && version !== CLUSTERING_VERSION) {
        throw new OtherClusteringVersionError(
          `PostgreSQL schema ${s}`,
          version,
          "Ingest into a new schema (NEWSINDEX_DATABASE_SCHEMA) and a new OpenSearch prefix to re-cluster",
        );
      }
      if (version === undefined)
        await db.query(`INSERT INTO ${s}.story_meta (key, value) VALUES ('clustering_version', $1)`, [CLUSTERING_VERSION]);
      await db.query("COMMIT");
    } catch (error) {
      await db.query("ROLLBACK");
      throw error;
    } finally {
      db.release();
    }
  }

  async clusterBatch<T>(batch: readonly StoryFeatures[], work: () => Promise<T>): Promise<T> {
    return this.transaction(async (db) => {
      await this.readAheadFor(db, batch);
      return work();
    });
  }

  async has(articleId: string): Promise<boolean> {
    return this.transaction((db) => this.hasIn(db, articleId));
  }

  private async hasIn(db: pg.PoolClient, articleId: string): Promise<boolean> {
    if (this.held.slotOf(articleId) !== undefined || this.unwritten.has(articleId)) return true;
    const ahead = this.readAhead;
    if (ahead?.asked.has(articleId)) return ahead.known.has(articleId);
    const { rowCount } = await db.query(`SELECT 1 FROM ${this.s}.story_articles WHERE id = $1`, [articleId]);
    return (rowCount ?? 0) > 0;
  }

  /** The features returned are shared with the store: read them, do not change them. */
  async candidates(features: StoryFeatures, windowMs: number, minSharedKeys: number): Promise<StoryCandidate[]> {
    return this.transaction(async (db) => {
      const keys = lookupKeys(features);
      if (keys.length < minSharedKeys) return [];
      const first = dayOf(features.timeMs - windowMs);
      const last = dayOf(features.timeMs + windowMs);
      const found = this.readAhead?.found;
      if (found?.of.has(features.id) && windowMs === STORY_WINDOW_MS && minSharedKeys === MIN_SHARED_KEYS)
        return foundAheadCandidates(found, features, keys, first, last);
      if (await this.held.hold(daysBetween(first, last), this.maxHeldArticles, this.daySource(db)))
        return this.held.candidates(features, keys, windowMs, minSharedKeys, first, last);
      await this.flush(db);
      const { rows } = await db.query<{ features: string; story: string }>(
        `SELECT a.features, a.story FROM (
           SELECT id FROM ${this.s}.story_keys WHERE day = ANY($1::int[]) AND key = ANY($2::text[])
           GROUP BY id HAVING count(*) >= $3
         ) c JOIN ${this.s}.story_articles a ON a.id = c.id
         WHERE a.time_ms BETWEEN $4 AND $5`,
        [daysBetween(first, last), keys, minSharedKeys, features.timeMs - windowMs, features.timeMs + windowMs],
      );
      return rows.map((row) => ({ features: JSON.parse(row.features) as StoryFeatures, story: row.story }));
    });
  }

  async add(features: StoryFeatures): Promise<void> {
    return this.transaction(async (db) => {
      // An article already recorded keeps its story.
      if (await this.hasIn(db, features.id)) return;
      const json = JSON.stringify(features);
      const at = dayOf(features.timeMs);
      // Held as a copy of its own: the caller's strings may be slices of far larger ones (a whole GKG line).
      const copy = JSON.parse(json) as StoryFeatures;
      const day = this.held.day(at);
      if (day !== undefined) this.held.add(day, copy, features.id);
      const added = this.readAhead?.found?.added;
      if (added !== undefined) added.add(added.day(at) ?? added.addDay(at), copy, features.id);
      this.unwritten.set(features.id, { features, json, story: features.id });
      this.unwrittenOf.set(features.id, new Set([features.id]));
      this.bornHere.add(features.id);
      this.wrote = true;
    });
  }

  async storyOf(articleId: string): Promise<string> {
    return this.transaction(async (db) => {
      const slot = this.held.slotOf(articleId);
      if (slot !== undefined) return this.held.story(slot);
      const unwritten = this.unwritten.get(articleId);
      if (unwritten !== undefined) return unwritten.story;
      const known = this.readAhead?.known.get(articleId);
      if (known !== undefined) return known;
      const { rows } = await db.query<{ story: string }>(`SELECT story FROM ${this.s}.story_articles WHERE id = $1`, [articleId]);
      const story = rows[0]?.story;
      if (story === undefined) throw new Error(`article ${articleId} is not clustered`);
      return story;
    });
  }

  async merge(storyA: string, storyB: string): Promise<{ story: string; moved: string[] }> {
    return this.transaction(async (db) => {
      if (storyA === storyB) return { story: storyA, moved: [] };
      const [story, absorbed] = storyA < storyB ? [storyA, storyB] : [storyB, storyA];
      const moved = [...(this.unwrittenOf.get(absorbed) ?? [])];
      for (const id of moved) (this.unwritten.get(id) as Unwritten).story = story;
      if (moved.length > 0) {
        this.unwrittenOf.delete(absorbed);
        const into = this.unwrittenOf.get(story);
        if (into === undefined) this.unwrittenOf.set(story, new Set(moved));
        else for (const id of moved) into.add(id);
      }
      // A story begun in this transaction has written members only once a flush or merge put some there; most
      // merges are of an article just added into an older story, and need no statement.
      if (!this.bornHere.has(absorbed) || this.written.has(absorbed)) {
        const { rows } = await db.query<{ id: string }>(
          `UPDATE ${this.s}.story_articles SET story = $1 WHERE story = $2 RETURNING id`,
          [story, absorbed],
        );
        for (const row of rows) moved.push(row.id);
        if (rows.length > 0) {
          this.written.add(story);
          this.wrote = true;
        }
      }
      const known = this.readAhead?.known;
      const found = this.readAhead?.found;
      for (const id of moved) {
        const slot = this.held.slotOf(id);
        if (slot !== undefined) this.held.setStory(slot, story);
        if (known?.has(id)) known.set(id, story);
        if (found === undefined) continue;
        if (found.story.has(id)) found.story.set(id, story);
        const added = found.added.slotOf(id);
        if (added !== undefined) found.added.setStory(added, story);
      }
      return { story, moved: moved.sort() };
    });
  }

  async members(story: string): Promise<string[]> {
    return this.transaction(async (db) => {
      await this.flush(db);
      const { rows } = await db.query<{ id: string }>(`SELECT id FROM ${this.s}.story_articles WHERE story = $1 ORDER BY id`, [
        story,
      ]);
      return rows.map((row) => row.id);
    });
  }

  /**
   * Moves the clustering state in `schema` aside, whatever its version, into a schema of its own named after
   * `stamp` (its digits), when it holds an article; returns that schema's name. A store opened there next starts empty.
   */
  static async setAside(url: string, schema: string, stamp: string): Promise<string | undefined> {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      await db.query("BEGIN");
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${schema}.stories`]);
      const { rows } = await db.query<{ found: string | null }>(`SELECT to_regclass($1) AS found`, [`${schema}.story_articles`]);
      const held =
        rows[0]?.found != null && ((await db.query(`SELECT 1 FROM ${schema}.story_articles LIMIT 1`)).rowCount ?? 0) > 0;
      if (!held) {
        await db.query("ROLLBACK");
        return undefined;
      }
      const aside = `${schema.slice(0, 40)}_stories_${stamp.replace(/\D/g, "").slice(0, 14)}`;
      await db.query(`CREATE SCHEMA ${aside}`);
      for (const table of ["story_meta", "story_articles", "story_keys"])
        await db.query(`ALTER TABLE ${schema}.${table} SET SCHEMA ${aside}`);
      await db.query("COMMIT");
      return aside;
    } catch (error) {
      await db.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      await db.end();
    }
  }

  private async createTables(db: pg.PoolClient): Promise<void> {
    const s = this.s;
    await db.query(`
      CREATE TABLE IF NOT EXISTS ${s}.story_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${s}.story_articles (
        id TEXT PRIMARY KEY, story TEXT NOT NULL, day INTEGER NOT NULL, time_ms BIGINT NOT NULL, features TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS story_articles_story ON ${s}.story_articles (story);
      CREATE INDEX IF NOT EXISTS story_articles_day ON ${s}.story_articles (day);
      -- Each article's keys (story-keys.ts) by publication day: candidates are found by counting shared keys.
      CREATE TABLE IF NOT EXISTS ${s}.story_keys (
        day INTEGER NOT NULL, key TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (key, day, id));
      INSERT INTO ${s}.story_meta (key, value) VALUES ('generation', '0') ON CONFLICT DO NOTHING;
    `);
  }

  async close(): Promise<void> {
    if (this.pool.ended) return;
    await this.pool.end();
  }

  /**
   * Runs `work` in the open transaction, or in one of its own: the batch's turn (advisory lock), what is held
   * dropped when another store has committed since, and at the end the unwritten articles written and the
   * generation bumped, all committed together. A failure rolls it all back and drops what is held.
   */
  private async transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.db !== undefined) return work(this.db);
    const db = await this.pool.connect();
    this.db = db;
    try {
      await db.query("BEGIN");
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${this.s}.stories`]);
      const { rows } = await db.query<{ value: string }>(`SELECT value FROM ${this.s}.story_meta WHERE key = 'generation'`);
      const generation = rows[0]?.value;
      if (generation !== this.generation) this.held.clear();
      this.generation = generation;
      const result = await work(db);
      await this.flush(db);
      if (this.wrote) {
        const bumped = await db.query<{ value: string }>(
          `UPDATE ${this.s}.story_meta SET value = (value::bigint + 1)::text WHERE key = 'generation' RETURNING value`,
        );
        this.generation = bumped.rows[0]?.value;
      }
      await db.query("COMMIT");
      return result;
    } catch (error) {
      this.held.clear();
      this.generation = undefined;
      this.unwritten.clear();
      this.unwrittenOf.clear();
      await db.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      this.db = undefined;
      this.readAhead = undefined;
      this.bornHere.clear();
      this.written.clear();
      this.wrote = false;
      db.release();
    }
  }

  /** Reads which of the batch's articles are clustered, and holds the days its articles look around, in one go. */
  private async readAheadFor(db: pg.PoolClient, batch: readonly StoryFeatures[]): Promise<void> {
    const ids = batch.map((f) => f.id);
    const { rows } = await db.query<{ id: string; story: string }>(
      `SELECT id, story FROM ${this.s}.story_articles WHERE id = ANY($1::text[])`,
      [ids],
    );
    const known = new Map(rows.map((row) => [row.id, row.story]));
    this.readAhead = { asked: new Set(ids), known };
    // An article clustered before is given its story again: it looks for no candidates.
    const fresh = batch.filter((f) => !known.has(f.id));
    const days = new Set<number>();
    for (const features of fresh) {
      if (lookupKeys(features).length < MIN_SHARED_KEYS) continue;
      const first = dayOf(features.timeMs - STORY_WINDOW_MS);
      const last = dayOf(features.timeMs + STORY_WINDOW_MS);
      for (let day = first; day <= last; day++) days.add(day);
    }
    if (await this.held.hold([...days], this.maxHeldArticles, this.daySource(db))) return;
    // More days than may be held (GDELT's full volume): every article's candidates are counted in one statement.
    this.readAhead.found = await this.findAhead(db, fresh);
  }

  /** Each batch article's candidates among the written articles: those sharing enough keys within the window. */
  private async findAhead(db: pg.PoolClient, batch: readonly StoryFeatures[]): Promise<FoundAhead> {
    const probes: number[] = [];
    const keys: string[] = [];
    const firsts: number[] = [];
    const lasts: number[] = [];
    batch.forEach((features, probe) => {
      const lookup = lookupKeys(features);
      if (lookup.length < MIN_SHARED_KEYS) return;
      for (const key of lookup) {
        probes.push(probe);
        keys.push(key);
        firsts.push(dayOf(features.timeMs - STORY_WINDOW_MS));
        lasts.push(dayOf(features.timeMs + STORY_WINDOW_MS));
      }
    });
    const { rows } = await db.query<{ probe: number; id: string; story: string; features: string }>(
      `SELECT c.probe, a.id, a.story, a.features FROM (
         SELECT p.probe, k.id FROM unnest($1::int[], $2::text[], $3::int[], $4::int[]) AS p(probe, key, first, last)
         JOIN ${this.s}.story_keys k ON k.key = p.key AND k.day BETWEEN p.first AND p.last
         GROUP BY p.probe, k.id HAVING count(*) >= $5
       ) c JOIN ${this.s}.story_articles a ON a.id = c.id`,
      [probes, keys, firsts, lasts, MIN_SHARED_KEYS],
    );
    const found: FoundAhead = { of: new Map(), features: new Map(), story: new Map(), added: new HeldArticles() };
    for (const features of batch) found.of.set(features.id, []);
    for (const row of rows) {
      const probe = batch[row.probe] as StoryFeatures;
      let features = found.features.get(row.id);
      if (features === undefined) {
        features = JSON.parse(row.features) as StoryFeatures;
        found.features.set(row.id, features);
        found.story.set(row.id, row.story);
      }
      if (Math.abs(features.timeMs - probe.timeMs) <= STORY_WINDOW_MS) found.of.get(probe.id)?.push(row.id);
    }
    return found;
  }

  /** Held days are read from the tables once the unwritten articles are written (they are in the open transaction). */
  private daySource(db: pg.PoolClient): HeldDaySource {
    return {
      count: async (days) => {
        await this.flush(db);
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM ${this.s}.story_articles WHERE day = ANY($1::int[])`,
          [days],
        );
        return Number(rows[0]?.n ?? 0);
      },
      rows: async (days) =>
        (
          await db.query<{ story: string; features: string }>(
            `SELECT story, features FROM ${this.s}.story_articles WHERE day = ANY($1::int[])`,
            [days],
          )
        ).rows,
    };
  }

  /**
   * Writes the unwritten articles and their keys: two statements, whatever their number. None is there yet (`add`
   * looked, under the lock batches take turns on), so a conflict is a fault that rolls the batch back.
   */
  private async flush(db: pg.PoolClient): Promise<void> {
    if (this.unwritten.size === 0) return;
    const ids: string[] = [];
    const stories: string[] = [];
    const days: number[] = [];
    const times: number[] = [];
    const jsons: string[] = [];
    const keyDays: number[] = [];
    const keys: string[] = [];
    const keyIds: string[] = [];
    for (const { features, json, story } of this.unwritten.values()) {
      const day = dayOf(features.timeMs);
      ids.push(features.id);
      stories.push(story);
      days.push(day);
      times.push(features.timeMs);
      jsons.push(json);
      for (const key of new Set(indexKeys(features))) {
        keyDays.push(day);
        keys.push(key);
        keyIds.push(features.id);
      }
      this.written.add(story);
      // Written now, and perhaps on a day not held: `has` and `storyOf` find it where the batch's own are.
      this.readAhead?.known.set(features.id, story);
    }
    await db.query(
      `INSERT INTO ${this.s}.story_articles (id, story, day, time_ms, features)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[], $5::text[])`,
      [ids, stories, days, times, jsons],
    );
    await db.query(
      `INSERT INTO ${this.s}.story_keys (day, key, id)
       SELECT * FROM unnest($1::int[], $2::text[], $3::text[])`,
      [keyDays, keys, keyIds],
    );
    this.unwritten.clear();
    this.unwrittenOf.clear();
  }
}

/** A batch article's candidates found ahead, and those among the batch's articles added before it. */
function foundAheadCandidates(
  found: FoundAhead,
  features: StoryFeatures,
  keys: readonly string[],
  first: number,
  last: number,
): StoryCandidate[] {
  const candidates = (found.of.get(features.id) ?? []).map((id) => ({
    features: found.features.get(id) as StoryFeatures,
    story: found.story.get(id) as string,
  }));
  for (let day = first; day <= last; day++) if (found.added.day(day) === undefined) found.added.addDay(day);
  candidates.push(...found.added.candidates(features, keys, STORY_WINDOW_MS, MIN_SHARED_KEYS, first, last));
  return candidates;
}
