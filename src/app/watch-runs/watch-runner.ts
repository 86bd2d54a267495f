import { randomUUID } from "node:crypto";
import { eventId, stepStory } from "../../domain/watches/story-growth.js";
import { intervalMs, WATCH_LIMITS, type WatchStatus } from "../../domain/watches/watch.js";
import type { OperationDeps } from "../operation.js";
import { planStoriesCall } from "../operations/watches/watch-query.js";
import type { StoryState, WatchEvent, WatchRecord, WatchStore } from "../../ports/watch-store.js";
import type { StoriesResponse } from "../../schemas/responses.js";
import type { Logger } from "../../shared/logger.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";

// Runs due watches (spec 02, sections 3 and 6). Each run is the watch's saved
// /stories query, newest first, over a window starting one interval before
// the watermark (the first run looks back one interval or an hour), reading
// the 100 newest stories; it records new_story and story_growth per the
// per-story states, charged to the creating key. Watches are claimed with a
// lease, so with several replicas on one store each due watch runs once.

export interface WatchRunnerOptions {
  /** How long a claim holds before another replica may take the watch over. */
  leaseMs?: number;
  /** Watches claimed at once (1: each as its run starts). */
  batch?: number;
  holder?: string;
}

export interface RunReport {
  watch_id: string;
  outcome: "complete" | "incomplete" | WatchStatus;
  recorded: number;
}

/** What watch runs are counted under in the usage counters. */
const RUNS = { as: "job", operation: "watch runs" } as const;

export class WatchRunner {
  private readonly leaseMs: number;
  private readonly batch: number;
  readonly holder: string;

  constructor(
    private readonly store: WatchStore,
    private readonly deps: OperationDeps,
    private readonly logger: Logger,
    options: WatchRunnerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    // One at a time: a claim's lease starts with its own run. Claimed 20 at once and run one after another, the
    // last ones' leases could run out before their turn, and another replica would run (and charge) them as well.
    this.batch = options.batch ?? 1;
    this.holder = options.holder ?? `runner-${randomUUID()}`;
  }

  /**
   * Runs every watch due now, claiming each as its run starts, and drops events past retention. `going` is asked
   * before each claim: a process shutting down claims no more, and leaves the rest to the replicas that stay.
   */
  async runDue(going: () => boolean = () => true): Promise<RunReport[]> {
    const reports: RunReport[] = [];
    while (going()) {
      const nowMs = this.deps.clock.now();
      const claimed = await this.store.claimDueWatches(toStamp(nowMs), nowMs, this.holder, this.leaseMs, this.batch);
      for (const watch of claimed) reports.push(await this.runOne(watch));
      if (claimed.length < this.batch) break;
    }
    await this.store.pruneEvents(toStamp(this.deps.clock.now() - WATCH_LIMITS.eventRetentionMs));
    return reports;
  }

  private async runOne(watch: WatchRecord): Promise<RunReport> {
    const nowMs = this.deps.clock.now();
    const every = intervalMs(watch.interval_minutes);
    const owner = await this.deps.accounts.callerForKey(watch.key_id);
    // The owning key revoked, expired or suspended: nothing runs, nothing is charged; checked again each interval.
    if (owner === undefined || !owner.usable) return this.pause(watch, "paused_key", nowMs + every);
    const { caller } = owner;

    const runStart = toStamp(nowMs);
    const lookback = watch.watermark === null ? Math.max(every, WATCH_LIMITS.firstLookbackMs) : every;
    const from = toStamp((watch.watermark === null ? nowMs : (parseStamp(watch.watermark) ?? nowMs)) - lookback);
    const window = { from, to: runStart, limit: WATCH_LIMITS.storiesPerRun };

    let call: ReturnType<typeof planStoriesCall>;
    try {
      call = planStoriesCall(watch.query, window, caller, this.deps);
    } catch (error) {
      this.logger.warn({ watch_id: watch.id, err: error }, "watch run failed");
      return this.record(watch, undefined, nowMs);
    }
    let report: RunReport | undefined;
    const metered = await this.deps.credits.metered(caller, call.price, RUNS, (meter) => call.execute(meter), {
      // The run is recorded before it is charged: a crash in between leaves it uncharged, never charged twice.
      beforeSettle: async (outcome) => {
        if (!outcome.ok) this.logger.warn({ watch_id: watch.id, err: outcome.error }, "watch run failed");
        report = await this.record(watch, outcome.ok ? (outcome.value as StoriesResponse) : undefined, nowMs);
      },
    });
    // A hard-capped key whose month cannot cover the run: paused, rechecked after an hour or the interval.
    if (metered === undefined) {
      return this.pause(watch, "paused_credits", nowMs + Math.max(every, WATCH_LIMITS.creditsRecheckMs));
    }
    return this.recorded(report);
  }

  /** Writes what a run saw: events per the per-story states, the watermark when complete. */
  private async record(watch: WatchRecord, answer: StoriesResponse | undefined, nowMs: number): Promise<RunReport> {
    const runStart = toStamp(nowMs);
    // Events are named after the time the run was due, so a repeated run names the same events.
    const recordedAt = watch.next_run_at;
    const stories = answer?.stories ?? [];
    const known = await this.store.storyStates(
      watch.id,
      stories.map((s) => s.story_id),
    );
    const states: StoryState[] = [];
    const events: WatchEvent[] = [];
    for (const story of stories) {
      const step = stepStory(known.get(story.story_id), { outlets: story.outlets }, watch.minimum_outlets, watch.notify_on);
      if (step.memory !== undefined)
        states.push({ story_id: story.story_id, outlets: step.memory.outlets, last_seen_at: runStart });
      if (step.kind === "none" || !step.notify) continue;
      const event: WatchEvent = {
        id: eventId(recordedAt, step.kind, story.story_id, story.outlets),
        kind: step.kind,
        watch_id: watch.id,
        recorded_at: recordedAt,
        occurred_at: (await this.newestPublished(story.story_id)) ?? story.published_at,
        story_id: story.story_id,
        title: story.title,
        url: story.url,
        count: story.count,
        outlets: story.outlets,
      };
      if (step.kind === "story_growth")
        Object.assign(event, { previous_outlets: step.previous_outlets, current_outlets: story.outlets });
      events.push(event);
    }
    const complete = answer !== undefined && !answer.partial;
    const recorded = await this.store.completeRun({
      watchId: watch.id,
      holder: this.holder,
      states,
      forgetBefore: toStamp(nowMs - WATCH_LIMITS.storyForgottenAfterMs),
      events,
      patch: {
        // A paused watch that runs again is active; a failing one stays failing until a delivery succeeds.
        status: watch.status === "failing" ? "failing" : "active",
        last_run_at: runStart,
        next_run_at: toStamp(nowMs + intervalMs(watch.interval_minutes)),
        watermark: complete ? runStart : watch.watermark,
        consecutive_incomplete: complete ? 0 : watch.consecutive_incomplete + 1,
      },
      deliverAtMs: nowMs,
    });
    return { watch_id: watch.id, outcome: complete ? "complete" : "incomplete", recorded: recorded?.length ?? 0 };
  }

  /**
   * `occurred_at` (spec 02, section 6, rule 5): the publication time of the story's newest article as the
   * event is recorded. Read for events only; when the index cannot say, the listed article's time stands in.
   */
  private async newestPublished(storyId: string): Promise<string | undefined> {
    try {
      const found = await this.deps.stories.storyOverview(storyId, {}, { limit: 1, sources: 1 });
      return found.story?.listed[0]?.published_at ?? undefined;
    } catch (error) {
      this.logger.warn({ story_id: storyId, err: error }, "newest article time unavailable; the listed article's stands in");
      return undefined;
    }
  }

  /** The report `beforeSettle` wrote: it runs whenever a reservation was admitted. */
  private recorded(report: RunReport | undefined): RunReport {
    if (report === undefined) throw new Error("an admitted watch run settled without being recorded");
    return report;
  }

  private async pause(watch: WatchRecord, status: WatchStatus, nextMs: number): Promise<RunReport> {
    await this.store.reschedule(watch.id, this.holder, status, toStamp(nextMs));
    return { watch_id: watch.id, outcome: status, recorded: 0 };
  }
}
