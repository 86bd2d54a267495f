import type Database from "better-sqlite3";
import { CLUSTERING_VERSION } from "../../domain/stories/same-story.js";
import type { StoryFeatures } from "../../domain/stories/story-features.js";
import type { StoryStore } from "../../ports/story-store.js";
import { openDatabase } from "./open-database.js";
import { StatementCache } from "./statement-cache.js";

// stories.db: each clustered article's features and story, plus a word index
// bucketed by publication day, so candidates are found by counting shared
// headline words in SQL over a few days' postings rather than by scanning.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS story_articles (
  id TEXT PRIMARY KEY,
  story TEXT NOT NULL,
  time_ms INTEGER NOT NULL,
  features TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS story_articles_story ON story_articles (story);
CREATE TABLE IF NOT EXISTS story_words (
  word TEXT NOT NULL,
  day INTEGER NOT NULL,
  id TEXT NOT NULL,
  PRIMARY KEY (word, day, id)
) WITHOUT ROWID;
`;

const DAY_MS = 86_400_000;

/** stories.db holds clusters of another algorithm version: mixing them with this one's would split or merge stories arbitrarily. */
export class OtherClusteringVersionError extends Error {
  constructor(path: string, version: string) {
    super(
      `${path} holds stories clustered with ${version}; this version clusters with ${CLUSTERING_VERSION}. ` +
        "Ingest into a new data directory to re-cluster; serving the existing one needs no change.",
    );
  }
}

export class SqliteStoryStore implements StoryStore {
  private readonly db: Database.Database;
  private readonly statements: StatementCache;

  constructor(path: string) {
    this.db = openDatabase(path);
    this.db.exec(SCHEMA);
    this.statements = new StatementCache(this.db);
    const version = this.clusteringVersion();
    if (version !== undefined && version !== CLUSTERING_VERSION) {
      this.db.close();
      throw new OtherClusteringVersionError(path, version);
    }
    if (version === undefined)
      this.db.prepare("INSERT INTO meta (key, value) VALUES ('clustering_version', ?)").run(CLUSTERING_VERSION);
  }

  /** The version recorded in the file; a file from before versions were recorded holds stories-v1 clusters. */
  private clusteringVersion(): string | undefined {
    const recorded = this.db.prepare("SELECT value FROM meta WHERE key = 'clustering_version'").pluck().get() as
      | string
      | undefined;
    if (recorded !== undefined) return recorded;
    return this.db.prepare("SELECT 1 FROM story_articles LIMIT 1").get() === undefined ? undefined : "stories-v1";
  }

  async has(articleId: string): Promise<boolean> {
    return this.statements.get("SELECT 1 FROM story_articles WHERE id = ?").get(articleId) !== undefined;
  }

  async candidates(features: StoryFeatures, windowMs: number, minSharedWords: number): Promise<StoryFeatures[]> {
    if (features.titleWords.length < minSharedWords) return [];
    const rows = this.statements
      .get(
        `SELECT a.features FROM (
           SELECT id FROM story_words
           WHERE word IN (SELECT value FROM json_each(@words)) AND day BETWEEN @first AND @last
           GROUP BY id HAVING count(*) >= @min
         ) c JOIN story_articles a ON a.id = c.id
         WHERE a.time_ms BETWEEN @from AND @to`,
      )
      .pluck()
      .all({
        words: JSON.stringify(features.titleWords),
        first: Math.floor((features.timeMs - windowMs) / DAY_MS),
        last: Math.floor((features.timeMs + windowMs) / DAY_MS),
        min: minSharedWords,
        from: features.timeMs - windowMs,
        to: features.timeMs + windowMs,
      }) as string[];
    return rows.map((json) => JSON.parse(json) as StoryFeatures);
  }

  async add(features: StoryFeatures): Promise<void> {
    const insertArticle = this.statements.get(
      "INSERT OR IGNORE INTO story_articles (id, story, time_ms, features) VALUES (?, ?, ?, ?)",
    );
    const insertWord = this.statements.get("INSERT OR IGNORE INTO story_words (word, day, id) VALUES (?, ?, ?)");
    const day = Math.floor(features.timeMs / DAY_MS);
    this.db.transaction(() => {
      insertArticle.run(features.id, features.id, features.timeMs, JSON.stringify(features));
      for (const word of features.titleWords) insertWord.run(word, day, features.id);
    })();
  }

  async storyOf(articleId: string): Promise<string> {
    const story = this.statements.get("SELECT story FROM story_articles WHERE id = ?").pluck().get(articleId) as
      string | undefined;
    if (story === undefined) throw new Error(`article ${articleId} is not clustered`);
    return story;
  }

  async merge(storyA: string, storyB: string): Promise<{ story: string; moved: string[] }> {
    if (storyA === storyB) return { story: storyA, moved: [] };
    const [story, absorbed] = storyA < storyB ? [storyA, storyB] : [storyB, storyA];
    const moved = await this.members(absorbed);
    this.statements.get("UPDATE story_articles SET story = ? WHERE story = ?").run(story, absorbed);
    return { story, moved };
  }

  async members(story: string): Promise<string[]> {
    return this.statements.get("SELECT id FROM story_articles WHERE story = ? ORDER BY id").pluck().all(story) as string[];
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
