import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import { headlineKey } from "../../domain/stories/headline-key.js";
import type { ArticlePartition } from "./article-partition.js";
import { ensureEntityKeys } from "./entity-keys.js";
import { multiRowInsertSql } from "./multi-row-insert.js";
import { PostingsBuffer } from "./postings-buffer.js";
import { SignalRowsBuffer } from "./signal-rows-buffer.js";
import { amountsOf, cityCoordinates, type PreparedArticle } from "./prepared-article.js";
import type { ArticleDetail } from "../../domain/article.js";
import { eventTypesOf } from "../../domain/vocabularies/events-v1.js";
import { REBUILDABLE, TALLIES_BUILT } from "./partition-schema.js";
import { StoryTally } from "./story-tally.js";
import { TimeTally } from "./time-tally.js";
import { decodeTerms, encodeTerms, termOfField } from "./term-blob.js";
import { decodeDoc, encodeDoc } from "./doc-codec.js";
import { TermWriter } from "./term-writer.js";

// Writes into one monthly index: new articles (row, document, FTS entry,
// postings, term counts, story sizes, time tallies) and the moves of articles between
// stories that clustering causes. Each call is one transaction.

/** Page cache (negative: KiB) of a connection that has written. */
const WRITE_CACHE_KIB = -262_144;

/** An article a relabel moves, as read before it moves. */
interface MovingArticle {
  rowid: number;
  terms: Buffer;
  published_at: string;
  doc: Buffer;
}

export class PartitionWriter {
  private readonly terms: TermWriter;
  private readonly stories: StoryTally;
  private readonly time: TimeTally;

  constructor(readonly partition: ArticlePartition) {
    // Postings inserts land all over the B-tree: a large cache keeps a month's worth of it in memory.
    partition.db.pragma(`cache_size = ${WRITE_CACHE_KIB}`);
    ensureEntityKeys(partition);
    this.terms = new TermWriter(partition.statements);
    this.stories = new StoryTally(partition.statements);
    this.time = new TimeTally(partition.statements);
    // Written from now on, the tallies must already count what the index holds.
    if (!partition.talliesBuilt()) this.buildTallies();
  }

  /**
   * Counts every stored article into the time tallies (an index written before them), in one transaction that
   * also records them built; until it commits, readers count the articles instead. Returns how many it counted.
   */
  buildTallies(): number {
    const statements = this.partition.statements;
    return this.transaction(() => {
      for (const table of ["tallies", "tally_stories", "tally_outlets"]) statements.get(`DELETE FROM ${table}`).run();
      let counted = 0;
      const rows = statements.get("SELECT published_at, terms FROM articles").iterate() as Iterable<{
        published_at: string;
        terms: Buffer;
      }>;
      for (const row of rows) {
        const ids = decodeTerms(row.terms);
        this.time.add({
          published_at: row.published_at,
          story: termOfField(ids, FILTER_FIELDS.story_id.code),
          source: termOfField(ids, FILTER_FIELDS.source.code),
        });
        counted++;
      }
      statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES ('tallies', ?)").run(TALLIES_BUILT);
      return counted;
    });
  }

  /** Inserts the articles not yet present, in one transaction; returns how many were new. */
  write(articles: readonly PreparedArticle[]): number {
    const statements = this.partition.statements;
    const exists = statements.get("SELECT 1 FROM articles WHERE id = ?").pluck();
    const insertArticle = statements.get(
      `INSERT INTO articles (id, published_at, source, source_type, publisher_country, language, terms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertDoc = statements.get("INSERT INTO docs (rowid, doc) VALUES (?, ?)");
    const insertFts = statements.get("INSERT INTO articles_fts (rowid, title, entities) VALUES (?, ?, ?)");
    const bumpCount = statements.get("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'articles'");
    const postings = new PostingsBuffer(statements);
    const signals = new SignalRowsBuffer(statements);
    const terms = this.terms;
    return this.transaction(() => {
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
          encodeTerms(ids),
        ).lastInsertRowid;
        insertDoc.run(rowid, encodeDoc(a.json));
        insertFts.run(rowid, a.title, a.entities);
        postings.push(ids, Number(rowid));
        signals.push(Number(rowid), a.signals);
        this.writeDerivedRows(Number(rowid), a);
        const story = termOfField(ids, FILTER_FIELDS.story_id.code);
        const source = termOfField(ids, FILTER_FIELDS.source.code);
        if (story !== undefined) this.stories.add({ story, source, published_at: a.published_at, headline: a.headline });
        this.time.add({ published_at: a.published_at, story, source });
        inserted++;
      }
      postings.flush();
      signals.flush();
      if (inserted > 0) bumpCount.run(inserted);
      return inserted;
    });
  }

  /**
   * Moves articles to another story, everywhere the story id lives: the
   * story_id term (postings and counts), the article's doc values, its stored
   * JSON. One transaction; returns how many articles moved.
   */
  relabel(storyId: string, articleIds: readonly string[]): number {
    const code = FILTER_FIELDS.story_id.code;
    const key = foldValue(storyId);
    const statements = this.partition.statements;
    const row = statements.get(
      "SELECT a.rowid, a.terms, a.published_at, d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid WHERE a.id = ?",
    );
    const dropPosting = statements.get("DELETE FROM postings WHERE term = ? AND article = ?");
    const addPosting = statements.get("INSERT OR IGNORE INTO postings (term, article) VALUES (?, ?)");
    const setTerms = statements.get("UPDATE articles SET terms = ? WHERE rowid = ?");
    const setDoc = statements.get("UPDATE docs SET doc = ? WHERE rowid = ?");
    const terms = this.terms;
    return this.transaction(() => {
      let moved = 0;
      for (const articleId of articleIds) {
        const current = row.get(articleId) as MovingArticle | undefined;
        if (current === undefined) continue;
        const article = JSON.parse(decodeDoc(current.doc)) as ArticleDetail;
        if (article.story_id === storyId) continue;
        const ids = Uint32Array.from(decodeTerms(current.terms));
        const old = article.story_id === null ? undefined : this.partition.termId(code, foldValue(article.story_id));
        const next = terms.idOf(code, key, storyId === key ? "" : storyId);
        const member = {
          source: termOfField(ids, FILTER_FIELDS.source.code),
          published_at: current.published_at,
          headline: headlineKey(article.title, article.source),
        };
        if (old !== undefined) {
          dropPosting.run(old, current.rowid);
          terms.release(old);
          this.stories.remove({ ...member, story: old });
        }
        addPosting.run(next, current.rowid);
        this.stories.add({ ...member, story: next });
        this.time.move(member, old, next);
        const at = old === undefined ? -1 : ids.indexOf(old);
        const updated = at >= 0 ? ids : Uint32Array.from([...ids, next]);
        if (at >= 0) updated[at] = next;
        setTerms.run(encodeTerms(updated), current.rowid);
        article.story_id = storyId;
        setDoc.run(encodeDoc(JSON.stringify(article)), current.rowid);
        moved++;
      }
      return moved;
    });
  }

  /**
   * Rebuilds the derived fields a stored article can give (events-v1, geo-v1,
   * amounts-v1: partition-schema.ts) for up to `limit` articles stored without
   * them, after the last one done; one transaction, which also records how far
   * it got, so a killed rebuild resumes there. Returns how many it rebuilt (0:
   * none left, and the index now records the vocabularies).
   */
  rebuildDerived(limit: number): number {
    const statements = this.partition.statements;
    const code = FILTER_FIELDS.event_type.code;
    const next = statements.get(
      `SELECT a.rowid, a.terms, d.doc FROM articles a JOIN docs d ON d.rowid = a.rowid
       WHERE a.rowid > coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'rebuilt_through'), 0)
       ORDER BY a.rowid LIMIT ?`,
    );
    const setDoc = statements.get("UPDATE docs SET doc = ? WHERE rowid = ?");
    const setTerms = statements.get("UPDATE articles SET terms = ? WHERE rowid = ?");
    const addPosting = statements.get("INSERT OR IGNORE INTO postings (term, article) VALUES (?, ?)");
    const progress = statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES ('rebuilt_through', ?)");
    return this.transaction(() => {
      const rows = next.all(limit) as Array<{ rowid: number; terms: Buffer; doc: Buffer }>;
      for (const row of rows) {
        const article = JSON.parse(decodeDoc(row.doc)) as ArticleDetail;
        // Written by this version already (an ingest into an older index): its derived rows exist.
        if (article.event_types !== undefined) continue;
        const events = eventTypesOf(article.topics, article.title, article.url);
        const ids = events.map((event) => this.terms.idOf(code, event, ""));
        for (const id of ids) addPosting.run(id, row.rowid);
        if (ids.length > 0) setTerms.run(encodeTerms(Uint32Array.from([...decodeTerms(row.terms), ...ids])), row.rowid);
        setDoc.run(encodeDoc(JSON.stringify({ ...article, event_types: events })), row.rowid);
        this.writeDerivedRows(row.rowid, { places: cityCoordinates(article), amounts: amountsOf(article) });
      }
      const last = rows[rows.length - 1];
      if (last !== undefined) progress.run(String(last.rowid));
      else {
        const built = new Set([...this.partition.derivedFields(), ...REBUILDABLE]);
        statements.get("INSERT OR REPLACE INTO meta (key, value) VALUES ('derived_fields', ?)").run([...built].join(","));
        statements.get("DELETE FROM meta WHERE key = 'rebuilt_through'").run();
      }
      return rows.length;
    });
  }

  /**
   * An article's places and amounts (partition-schema.ts DERIVED_SCHEMA; its signals go through SignalRowsBuffer);
   * written again, they replace. Each table's rows go in one statement: the cost per statement run, not per row,
   * was the larger part.
   */
  private writeDerivedRows(rowid: number, a: Pick<PreparedArticle, "places" | "amounts">): void {
    const places: Array<number | string> = [];
    for (let i = 0; i + 1 < a.places.length; i += 2) places.push(rowid, i / 2, a.places[i] as number, a.places[i + 1] as number);
    this.insertRows("places (article, seq, latitude, longitude)", 4, places);
    const amounts: Array<number | string> = [];
    a.amounts.forEach(([number, object], seq) => amounts.push(rowid, seq, number, object));
    this.insertRows("amounts (article, seq, number, object)", 4, amounts);
  }

  /** `values` as rows of `width` into `target` (`table (columns)`), up to 32 rows per statement. */
  private insertRows(target: string, width: number, values: ReadonlyArray<number | string>): void {
    const chunk = 32 * width;
    for (let at = 0; at < values.length; at += chunk) {
      const part = at === 0 && values.length <= chunk ? values : values.slice(at, at + chunk);
      this.partition.statements.get(multiRowInsertSql("INSERT OR REPLACE", target, width, part.length / width)).run(part);
    }
  }

  /** Articles a rebuild already went through (a rebuild killed part way resumes after them). */
  resumedAt(): number {
    return this.partition.statements
      .get(
        "SELECT count(*) FROM articles WHERE rowid <= coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'rebuilt_through'), 0)",
      )
      .pluck()
      .get() as number;
  }

  /** One transaction with the term counts and story sizes written last; a failed one leaves no cached term ids behind. */
  private transaction<T>(body: () => T): T {
    const run = this.partition.db.transaction(() => {
      this.terms.begin();
      this.stories.begin();
      this.time.begin();
      const result = body();
      this.terms.commit();
      this.stories.commit();
      this.time.commit();
      return result;
    });
    return this.partition.writing(() => {
      try {
        return run();
      } catch (error) {
        this.terms.reset();
        throw error;
      }
    });
  }

  close(): void {
    this.partition.close();
  }
}
