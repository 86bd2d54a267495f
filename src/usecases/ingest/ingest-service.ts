import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleSource } from "../../ports/article-source.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { StoryIndex, StoryRelabel } from "../../ports/story-index.js";
import type { Clock } from "../../shared/clock.js";
import type { StoryClusterer } from "../stories/story-clusterer.js";

// Reads files through an ArticleSource, clusters each article into a story,
// and writes them to the index in batches. Bad lines are skipped and reported
// with their line numbers; ingest never aborts on bad data. Writing is
// idempotent by article id, and so is clustering.
//
// Three batches are under way at once: one being read, the one before it being
// clustered (on the clustering thread when there is one, see StoryClusterer),
// and the one before that being written (on the index's writer thread, for the
// SQLite index). A batch is written once clustered, and after the batch before
// it; at most two batches wait behind the one being read, so memory stays flat.

export interface SkippedLine {
  file: string;
  line: number;
  reason: string;
}

export interface IngestSummary {
  files: number;
  /** Records read (good and skipped). */
  records: number;
  inserted: number;
  unchanged: number;
  skipped: number;
  skippedLines: SkippedLine[];
  seconds: number;
  recordsPerSecond: number;
}

export interface IngestProgress {
  file: string;
  records: number;
}

/** At most this many skipped lines are kept for the report; the count stays exact. */
const SKIPPED_KEPT = 1000;

/** Story clustering at ingest: the clusterer, and the index it relabels when stories merge. */
export interface IngestStories {
  clusterer: StoryClusterer;
  index: StoryIndex;
}

export class IngestService {
  constructor(
    private readonly source: ArticleSource,
    private readonly index: IndexBackend,
    private readonly batchSize: number,
    private readonly clock: Clock,
    private readonly stories?: IngestStories,
  ) {}

  /**
   * Ingests `files` as one bulk load of the index where the index has such a mode (ArticleStore.bulkLoad: in the
   * scaled shape, no refresh per write): every article is searchable when this returns, not batch by batch.
   */
  ingest(files: readonly string[], onProgress?: (progress: IngestProgress) => void): Promise<IngestSummary> {
    const run = (): Promise<IngestSummary> => this.ingestFiles(files, onProgress);
    return this.index.bulkLoad ? this.index.bulkLoad(run) : run();
  }

  private async ingestFiles(files: readonly string[], onProgress?: (progress: IngestProgress) => void): Promise<IngestSummary> {
    const started = this.clock.now();
    const summary: IngestSummary = {
      files: files.length,
      records: 0,
      inserted: 0,
      unchanged: 0,
      skipped: 0,
      skippedLines: [],
      seconds: 0,
      recordsPerSecond: 0,
    };
    // The last batch's clustering and write, and the one before it.
    let inFlight: Promise<void> = Promise.resolve();
    let before: Promise<void> = Promise.resolve();
    let batches = 0;
    try {
      for (const [at, file] of files.entries()) {
        let batch: ArticleDetail[] = [];
        const flush = async (): Promise<void> => {
          if (batch.length === 0) return;
          const full = batch;
          batch = [];
          // An ingest's first batch is clustered here: a small ingest is over before a thread would have started.
          const clustered = this.cluster(full, batches++ > 0);
          clustered.catch(() => undefined);
          const previous = inFlight;
          const records = summary.records;
          const write = (async () => {
            const relabels = await clustered;
            // Relabels move articles of earlier batches: they wait for those writes.
            await previous;
            const written = await this.index.write(full);
            summary.inserted += written.inserted;
            summary.unchanged += written.unchanged;
            // The index keeps an article it holds as it was: one ingested again is moved to the story clustering
            // gives it now, which differs when a crash came between clustering a merge and relabelling the index.
            if (written.unchanged > 0) relabels.push(...byStory(joined(full)));
            if (relabels.length > 0 && this.stories) await this.stories.index.relabel(relabels);
            onProgress?.({ file, records });
          })();
          // A failure surfaces at a later flush or at the end, never as an unhandled rejection.
          write.catch(() => undefined);
          inFlight = write;
          const older = before;
          before = previous;
          await older;
        };
        const next = files[at + 1];
        for await (const record of this.source.read(file, next === undefined ? {} : { next })) {
          summary.records++;
          if (record.ok) {
            batch.push(record.article);
            if (batch.length >= this.batchSize) await flush();
          } else {
            summary.skipped++;
            if (summary.skippedLines.length < SKIPPED_KEPT)
              summary.skippedLines.push({ file, line: record.line, reason: record.reason });
          }
        }
        await flush();
      }
      await inFlight;
    } finally {
      await Promise.all([this.stories?.clusterer.release(), this.source.release?.()]);
    }
    summary.seconds = (this.clock.now() - started) / 1000;
    summary.recordsPerSecond = summary.seconds > 0 ? Math.round(summary.records / summary.seconds) : summary.records;
    return summary;
  }

  /**
   * Clusters a batch in order. Its own articles take their final story before
   * they are written; articles already indexed that a merge moved are returned
   * for relabelling.
   */
  private async cluster(batch: ArticleDetail[], onThread: boolean): Promise<StoryRelabel[]> {
    if (!this.stories) return [];
    const storyOf = await this.stories.clusterer.addBatch(batch, onThread);
    const inBatch = new Set(batch.map((a) => a.id));
    for (const article of batch) article.story_id = storyOf.get(article.id) ?? article.story_id;
    return byStory([...storyOf].filter(([id]) => !inBatch.has(id)));
  }
}

/** Moves of articles to stories, grouped by story. */
function byStory(moves: Iterable<readonly [id: string, story: string]>): StoryRelabel[] {
  const members = new Map<string, string[]>();
  for (const [id, story] of moves) {
    const ids = members.get(story) ?? [];
    ids.push(id);
    members.set(story, ids);
  }
  return [...members.entries()].map(([story_id, article_ids]) => ({ story_id, article_ids }));
}

/** The batch's articles in another article's story. */
function joined(batch: readonly ArticleDetail[]): Array<[string, string]> {
  return batch.flatMap((a) => (a.story_id === null || a.story_id === a.id ? [] : [[a.id, a.story_id] as [string, string]]));
}
