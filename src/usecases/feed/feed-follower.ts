import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { listNames, parseFileList, SLOT_MS, slotsBetween, type ListedFile, type SlotKind } from "../../domain/feed-slots.js";
import type { FeedSource } from "../../ports/feed-source.js";
import type { SlotEntry, SlotLedger, SlotListing } from "../../ports/slot-ledger.js";
import type { Clock } from "../../shared/clock.js";
import type { Logger } from "../../shared/logger.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";
import type { IngestService } from "../ingest/ingest-service.js";

// Follows GDELT's feed into the index, keeping the slot ledger. A round reads the newest list of each kind,
// recovers the slots it jumped past from the master list (oldest first), and fetches every slot that is due:
// download to disk, size and md5 checked against the listing, then the ordinary ingest of the file. A file that
// does not match is never ingested. Ingest is idempotent by record id, and a slot is marked `ingested` only after
// its last record is written, so a process killed at any point and restarted leaves every record once.

export interface FollowSettings {
  kinds: readonly SlotKind[];
  /** Tries of a slot whose file does not match its listing (or cannot be read) before it is `failed`. */
  attempts: number;
  /** How long a listed file may answer 404 before the live follower calls it `missing`. */
  missingAfterMs: number;
  /** The poll interval: the first retry's wait, doubled each time up to a slot's length. */
  retryMs: number;
  /** Where downloads land before ingest (same disk as the index). */
  downloadDir: string;
}

export interface SlotOutcome {
  slot: string;
  kind: SlotKind;
  status: SlotEntry["status"];
  records: number | null;
  error: string | null;
}

export interface CatchUpProgress {
  done: number;
  total: number;
  slot: string;
  kind: SlotKind;
}

/** Slots fetched per round at most: a long gap is worked through over a few rounds, oldest first. */
const ROUND_LIMIT = 96;

export class FeedFollower {
  constructor(
    private readonly source: FeedSource,
    private readonly ledger: SlotLedger,
    private readonly ingest: () => Promise<IngestService>,
    private readonly clock: Clock,
    private readonly settings: FollowSettings,
    private readonly logger?: Logger,
  ) {
    mkdirSync(settings.downloadDir, { recursive: true });
  }

  /** One round of the live follower. `proceed` is asked before each slot (the caller may have stopped, or lost its lease). */
  async poll(proceed: () => Promise<boolean> = async () => true): Promise<SlotOutcome[]> {
    for (const kind of this.settings.kinds) {
      try {
        await this.readLatest(kind);
      } catch (error) {
        // The newest slot stays unknown this round; what is already due is still fetched.
        this.logger?.warn({ kind, err: String(error) }, "feed list unreadable; trying again next round");
      }
    }
    const outcomes: SlotOutcome[] = [];
    for (const entry of await this.ledger.due(this.now(), this.settings.kinds, ROUND_LIMIT)) {
      if (!(await proceed())) break;
      outcomes.push(await this.fetchSlot(entry, true));
    }
    return outcomes;
  }

  /**
   * Catches up `since`..`until` from the master lists and exits: every slot of the range lands in the ledger,
   * `failed` and `missing` ones are tried again, and nothing waits for a late file (a 404 is `missing` at once).
   */
  async catchUp(since: string, until: string, onProgress?: (p: CatchUpProgress) => void): Promise<SlotOutcome[]> {
    for (const kind of this.settings.kinds) {
      const { files, newest } = await this.masterListings(kind, since, until);
      // Slots after the master list's newest are not published yet: not holes.
      const last = newest !== undefined && newest < until ? newest : until;
      if (newest !== undefined && since <= last) await this.ledger.record(withGaps(kind, files, since, last), this.now());
      for (const entry of await this.ledger.list({ from: since, to: until, kinds: [kind] }))
        if (entry.status === "failed" || entry.status === "missing") await this.ledger.reopen(entry.slot, kind, this.now());
    }
    const todo = (await this.ledger.list({ from: since, to: until, kinds: this.settings.kinds })).filter(
      (e) => e.status === "pending",
    );
    const outcomes: SlotOutcome[] = [];
    for (const [i, first] of todo.entries()) {
      let entry: SlotEntry | undefined = first;
      let outcome: SlotOutcome;
      do {
        outcome = await this.fetchSlot(entry, false);
        entry = outcome.status === "pending" ? await this.ledger.get(first.slot, first.kind) : undefined;
      } while (entry?.status === "pending");
      outcomes.push(outcome);
      onProgress?.({ done: i + 1, total: todo.length, slot: first.slot, kind: first.kind });
    }
    return outcomes;
  }

  /** The newest listing of a kind; when it jumped past slots, those from the master list first. */
  private async readLatest(kind: SlotKind): Promise<void> {
    const latest: ListedFile[] = [];
    for await (const line of this.source.lines(listNames(kind).latest)) latest.push(...parseFileList(line));
    const newest = latest.filter((f) => f.kind === kind).sort((a, b) => b.slot.localeCompare(a.slot))[0];
    if (newest === undefined) throw new Error(`${listNames(kind).latest} lists no ${kind} file`);
    const known = await this.ledger.newest(kind);
    const now = this.now();
    if (known !== undefined && newest.slot > known) {
      const first = nextSlot(known);
      const last = toStamp((parseStamp(newest.slot) as number) - SLOT_MS);
      if (first <= last) {
        // Recorded before the newest slot: were the master list unreadable, the gap is found again next round.
        const { files } = await this.masterListings(kind, first, last);
        await this.ledger.record(withGaps(kind, files, first, last), now);
        this.logger?.info({ kind, from: first, to: last, listed: files.length }, "feed gap recovered from the master list");
      }
    }
    await this.ledger.record([newest], now);
  }

  /** The master list's files of a kind from `from` to `to`, and the newest slot it names at all. */
  private async masterListings(
    kind: SlotKind,
    from: string,
    to: string,
  ): Promise<{ files: ListedFile[]; newest: string | undefined }> {
    const files: ListedFile[] = [];
    let newest: string | undefined;
    for await (const line of this.source.lines(listNames(kind).master)) {
      for (const file of parseFileList(line)) {
        if (file.kind !== kind) continue;
        if (newest === undefined || file.slot > newest) newest = file.slot;
        if (file.slot >= from && file.slot <= to) files.push(file);
      }
    }
    return { files, newest };
  }

  /** One attempt at one slot: download, check, ingest, and the ledger row that says how it went. */
  private async fetchSlot(entry: SlotEntry, live: boolean): Promise<SlotOutcome> {
    const { slot, kind } = entry;
    if (entry.url === null || entry.md5 === null || entry.bytes === null) {
      await this.ledger.markMissing(slot, kind, "not in the master list", this.now());
      return this.outcome(slot, kind);
    }
    await this.ledger.startAttempt(slot, kind, this.now());
    const attempts = entry.attempts + 1;
    const name = entry.url.slice(entry.url.lastIndexOf("/") + 1);
    const dest = join(this.settings.downloadDir, `${slot}.${kind}.part`);
    try {
      const got = await this.source.download(name, dest, entry.bytes);
      if (!got.found) {
        const error = `HTTP ${got.status} at ${this.source.base}${name}`;
        const waited = this.clock.now() - (parseStamp(entry.first_seen_at) ?? 0);
        if (live && waited < this.settings.missingAfterMs) await this.retry(entry, attempts, error);
        else await this.ledger.markMissing(slot, kind, `${error}, listed since ${entry.first_seen_at}`, this.now());
        return this.outcome(slot, kind);
      }
      if (got.bytes !== entry.bytes || got.md5 !== entry.md5) {
        const error =
          got.bytes !== entry.bytes
            ? `size mismatch: listed ${entry.bytes} bytes, received ${got.bytes}`
            : `md5 mismatch: listed ${entry.md5}, received ${got.md5}`;
        await this.failedAttempt(entry, attempts, error, live);
        return this.outcome(slot, kind);
      }
      const summary = await (await this.ingest()).ingest([dest]);
      await this.ledger.markIngested(slot, kind, summary.inserted + summary.unchanged, this.now());
      this.logger?.info(
        { slot, kind, records: summary.inserted + summary.unchanged, new: summary.inserted },
        "feed slot ingested",
      );
    } catch (error) {
      await this.failedAttempt(entry, attempts, error instanceof Error ? error.message : String(error), live);
    } finally {
      await rm(dest, { force: true });
    }
    return this.outcome(slot, kind);
  }

  private async failedAttempt(entry: SlotEntry, attempts: number, error: string, live: boolean): Promise<void> {
    this.logger?.warn({ slot: entry.slot, kind: entry.kind, attempts, error }, "feed slot not ingested");
    if (attempts >= this.settings.attempts) await this.ledger.markFailed(entry.slot, entry.kind, error, this.now());
    else if (live) await this.retry(entry, attempts, error);
    else await this.ledger.markRetry(entry.slot, entry.kind, error, this.now(), this.now());
  }

  private async retry(entry: SlotEntry, attempts: number, error: string): Promise<void> {
    const wait = Math.min(this.settings.retryMs * 2 ** (attempts - 1), SLOT_MS);
    await this.ledger.markRetry(entry.slot, entry.kind, error, toStamp(this.clock.now() + wait), this.now());
  }

  private async outcome(slot: string, kind: SlotKind): Promise<SlotOutcome> {
    const row = await this.ledger.get(slot, kind);
    return { slot, kind, status: row?.status ?? "missing", records: row?.records ?? null, error: row?.last_error ?? null };
  }

  private now(): string {
    return toStamp(this.clock.now());
  }
}

function nextSlot(slot: string): string {
  return toStamp((parseStamp(slot) as number) + SLOT_MS);
}

/** The listings of a range, and a listing without file for every slot of it no list names (a hole in the feed). */
function withGaps(kind: SlotKind, listed: readonly ListedFile[], from: string, to: string): SlotListing[] {
  const bySlot = new Map(listed.map((f) => [f.slot, f]));
  return slotsBetween(from, to).map((slot) => bySlot.get(slot) ?? { slot, kind, bytes: null, md5: null, url: null });
}
