import { createHash } from "node:crypto";
import { ATTRIBUTION } from "../../domain/attribution.js";
import { TIE_GROUP_LIMIT } from "../../domain/browse-cursor.js";
import type { Plan } from "../../domain/plans.js";
import { exportRowCredits } from "../../domain/pricing.js";
import type { ExportManifest } from "../../schemas/export-responses.js";
import type { ExportPosition, ExportStart, ExportWalk } from "../../ports/article-export.js";
import type { IndexBackend } from "../../ports/index-backend.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { ApiError } from "../../shared/api-error.js";
import { resolveEntityFilters, type EntityResolution } from "../entities/entity-aliases.js";
import { completeness, mergeFailures } from "../query-kernel/coverage.js";
import { applyPlanWindow, type Window } from "../query-kernel/plan-window.js";
import { assertSomethingRead } from "../query-kernel/coverage.js";
import type { ExportRequest } from "./export-request.js";

// GET /export and `newsindex export`: every article a query matches, newest
// first then by id, one JSON line each, then a manifest line reconciling the
// lines to the count. The rows are counted before the first line, so the
// price is exact; the lines are read from the engine a batch at a time as the
// client takes them, so memory stays flat however large the export. The engine
// gives each batch as encoded lines: the stream cuts, hashes and sends bytes,
// and releases the batch once whoever writes the lines says they are written
// (ExportStream.written), so the engine fills the same memory again.
//
// The cursor's tie-group rule applies: a timestamp gives its first 5,000
// matches (by id, descending) and the rest are skipped, named in the manifest
// (`tie_groups_cut`) and left out of `count`, never silently.

/** Rows read from the engine at a time. */
const BATCH = 1000;

export type TieGroupCut = ExportManifest["tie_groups_cut"][number];

/** An export's chunks, read once. */
export interface ExportStream extends AsyncIterableIterator<Uint8Array> {
  /**
   * Says a chunk has been written out (nothing of it is left queued in the process), so the memory it is in may be
   * filled again. Chunks never said so are left to the garbage collector.
   */
  written(chunk: Uint8Array): void;
}

/** A counted export, ready to stream. */
export interface PreparedExport {
  /** Rows this response will send: the matches after `resume_after`, less the tie groups' skipped ones. */
  rows: number;
  /** What resolving `entity_id` filters took (credits). */
  entityCredits: number;
  /**
   * The lines (several per chunk, each ending in a newline), the manifest last. `refund` gets the credits of the
   * rows the stream did not send when it ends short (a client gone, an index failing): each response pays for
   * the thousands of rows it started.
   */
  lines(charged: number, refund: (credits: number) => Promise<void>): ExportStream;
  /** Releases the walk when the stream is never read (a preview, a refusal). */
  close(): Promise<void>;
}

export async function prepareExport(
  index: IndexBackend,
  request: ExportRequest,
  plan: Plan,
  nowMs: number,
): Promise<PreparedExport> {
  const window = applyPlanWindow(plan, request.filters.from, request.filters.to, nowMs);
  const resolution = await resolveEntityFilters(index, request.filters, plan, nowMs);
  const after = request.resumeAfter === undefined ? null : await positionOf(index, request.resumeAfter);
  const walk = await index.openExport(
    {
      ...(request.keywords ? { keywords: request.keywords } : {}),
      filters: { ...request.filters, from: window.from, to: window.to },
      after,
      view: request.view,
    },
    TIE_GROUP_LIMIT,
  );
  try {
    assertSomethingRead(walk.count, window.to);
  } catch (error) {
    await walk.close();
    throw error;
  }
  const cuts: TieGroupCut[] = [];
  let skippedHere = 0;
  for (const group of walk.count.largeTieGroups) {
    const unsent = group.matches - group.sent;
    const servable = Math.max(0, TIE_GROUP_LIMIT - group.sent);
    skippedHere += Math.max(0, unsent - servable);
    cuts.push({ published_at: group.published_at, matches: group.matches, skipped: group.matches - TIE_GROUP_LIMIT });
  }
  const rows = walk.count.remaining - skippedHere;
  const failed = mergeFailures(walk.count.partitionsFailed, resolution?.partitionsFailed ?? []);
  return {
    rows,
    entityCredits: resolution?.credits ?? 0,
    lines: (charged, refund) => {
      const progress: Progress = { sent: 0, settled: false };
      // Weak: a reader that never says a chunk is written does not keep it.
      const releases = new WeakMap<Uint8Array, () => void>();
      const lines = streamLines(walk, progress, releases, {
        after,
        rows,
        cuts,
        failed,
        read: walk.count.partitionsRead,
        window,
        resolution,
        charged,
        refund,
      });
      return abandonable(lines, releases, async () => {
        // Abandoned before its manifest (the client went away, even before the first line): the rows never
        // started are not charged.
        await walk.close();
        if (progress.settled || progress.sent >= rows) return;
        progress.settled = true;
        await refund(exportRowCredits(rows) - exportRowCredits(progress.sent)).catch(() => undefined);
      });
    },
    close: () => walk.close(),
  };
}

interface StreamContext {
  after: ExportPosition | null;
  rows: number;
  cuts: TieGroupCut[];
  failed: PartitionFailure[];
  read: string[];
  window: Window;
  resolution: EntityResolution | undefined;
  charged: number;
  refund(credits: number): Promise<void>;
}

/** How far a stream got: rows written, and whether its charge is final (the manifest was made). */
interface Progress {
  sent: number;
  settled: boolean;
}

/**
 * The lines, and `abandon` when the reader stops early. A generator that never started skips its `finally`
 * when returned, so the reader's return is caught here instead.
 */
function abandonable(
  lines: AsyncGenerator<Uint8Array>,
  releases: WeakMap<Uint8Array, () => void>,
  abandon: () => Promise<void>,
): ExportStream {
  let over = false;
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    written(chunk) {
      releases.get(chunk)?.();
      releases.delete(chunk);
    },
    async next() {
      const result = await lines.next();
      if (result.done === true) over = true;
      return result;
    },
    async return() {
      if (!over) {
        over = true;
        await lines.return(undefined);
        await abandon();
      }
      return { done: true, value: undefined };
    },
  };
}

/** `releases`: each chunk yielded from a batch the engine lends, with what gives it back (ExportStream.written). */
async function* streamLines(
  walk: ExportWalk,
  progress: Progress,
  releases: WeakMap<Uint8Array, () => void>,
  context: StreamContext,
): AsyncGenerator<Uint8Array> {
  const { after, rows } = context;
  const hash = createHash("sha256");
  let sent = 0;
  let last: string | null = null;
  let start: ExportStart | null = after;
  // Articles of the current timestamp served so far, by this piece and those before it.
  let stamp = after?.published_at;
  let served = after ? (walk.count.largeTieGroups.find((g) => g.published_at === after.published_at)?.sent ?? 0) : 0;
  let failedMidway: PartitionFailure[] = [];
  let more = false;
  try {
    for (;;) {
      const batch = await walk.next(start, Math.min(BATCH, Math.max(1, rows - sent)));
      if (batch.partitionsFailed.length > 0) {
        failedMidway = batch.partitionsFailed;
        break;
      }
      if (batch.rows.length === 0) break;
      // The batch's lines are sent up to the first row not to send.
      let taken = 0;
      for (const row of batch.rows) {
        if (row.published_at !== stamp) {
          stamp = row.published_at;
          served = 0;
        }
        if (served >= TIE_GROUP_LIMIT) {
          // The rest of this timestamp is skipped: the next batch starts with the older articles.
          start = { before: row.published_at };
          break;
        }
        // Never more rows than were counted and charged: articles written since the count wait for a resumed piece.
        if (sent === rows) {
          more = true;
          break;
        }
        served++;
        taken++;
        sent++;
        last = row.id;
        start = row;
      }
      if (taken > 0) {
        const chunk = batch.lines.bytes.subarray(0, batch.lines.ends[taken - 1]);
        hash.update(chunk);
        progress.sent = sent;
        if (batch.release) releases.set(chunk, batch.release);
        yield chunk;
      } else batch.release?.();
      if (more) break;
    }
    const short = failedMidway.length > 0 || sent < rows;
    const refunded = short ? exportRowCredits(rows) - exportRowCredits(sent) : 0;
    progress.settled = true;
    if (refunded > 0) await context.refund(refunded);
    const failed = mergeFailures(context.failed, failedMidway);
    const state = completeness(failed, context.read);
    const cut = context.cuts.length > 0;
    const manifest: ExportManifest = {
      count: sent,
      total: walk.count.total,
      sha256: hash.digest("hex"),
      // A failed index outranks a cut tie group: retrying may help the former, never the latter.
      coverage: state.coverage === "complete" && cut ? "range_too_wide" : state.coverage,
      partial: state.partial || cut || more || short,
      credits_charged: context.charged - refunded,
      // Where a resumed piece picks up: set when this one stopped before the end of the match set.
      next_resume_after: failedMidway.length > 0 || more ? last : null,
      tie_groups_cut: context.cuts,
      ...(context.resolution ? { resolved: context.resolution.resolved } : {}),
      history_days: context.window.history_days,
      from_clamped: context.window.from_clamped,
      attribution: ATTRIBUTION,
    };
    yield Buffer.from(JSON.stringify({ manifest }) + "\n");
  } finally {
    await walk.close();
  }
}

/** Where the export resumes: right after the article `id`, wherever it sits in export order. */
async function positionOf(index: IndexBackend, id: string): Promise<ExportPosition> {
  const lookup = await index.getArticle(id);
  if (lookup.status === "unavailable") {
    throw new ApiError(
      "upstream_unavailable",
      `The index holding the article '${id}' named by 'resume_after' could not be read. This is not evidence that it is absent: retry with backoff.`,
    );
  }
  const published = lookup.status === "found" ? lookup.article.published_at : null;
  if (published === null) {
    throw new ApiError(
      "invalid_parameter",
      `'resume_after' names no article in the index: '${id}'. Give the id of the last article line received from this export.`,
      { parameter: "resume_after" },
    );
  }
  return { published_at: published, id };
}
