import cliProgress from "cli-progress";
import { SLOT_KINDS, type SlotKind } from "../domain/feed-slots.js";
import type { Container } from "../container.js";
import type { SlotOutcome } from "../usecases/feed/feed-follower.js";
import { parseTimeBound, toStamp } from "../shared/timestamps.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./usage.js";

// `newsindex follow [BASE] [--since STAMP] [--until STAMP] [--no-translation]`: the live follower run once.
// Without --since, one round (the newest slot, the gap since the ledger's newest, and whatever is due); with it,
// the range caught up from the master lists, `failed` and `missing` slots tried again.

export interface FollowArgs {
  since?: string | undefined;
  until?: string | undefined;
  "no-translation"?: boolean | undefined;
}

/** The kinds followed: both, unless --no-translation. */
export function followedKinds(noTranslation: boolean | undefined): SlotKind[] {
  return noTranslation ? ["gkg"] : [...SLOT_KINDS];
}

/** BASE: a single http(s) URL, or none (GDELT's). */
export function feedBase(positionals: readonly string[]): string | undefined {
  if (positionals.length > 1) throw new UsageError("follow takes at most one BASE URL");
  const base = positionals[0];
  if (base !== undefined && !/^https?:\/\/[^/]/.test(base)) throw new UsageError(`BASE must be an http(s) URL; got ${base}`);
  return base;
}

export async function followCommand(
  io: CliIo,
  container: Container,
  positionals: readonly string[],
  values: FollowArgs,
): Promise<number> {
  const base = feedBase(positionals);
  const follower = container.feedFollower(base, followedKinds(values["no-translation"]));
  const since = values.since === undefined ? undefined : bound(values.since, "start", "--since");
  const until = values.until === undefined ? toStamp(container.clock.now()) : bound(values.until, "end", "--until");
  if (since === undefined) {
    if (values.until !== undefined) throw new UsageError("--until needs --since");
    report(io, await follower.poll());
    return 0;
  }
  if (since > until) throw new UsageError(`--since ${values.since} is after --until ${values.until ?? "now"}`);
  const bar = io.progress
    ? new cliProgress.SingleBar(
        { format: "follow [{bar}] {value}/{total} slots | {slot} {kind}", stream: io.progress, hideCursor: true },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let started = false;
  try {
    const outcomes = await follower.catchUp(since, until, ({ done, total, slot, kind }) => {
      if (!started) bar?.start(total, 0, { slot, kind });
      started = true;
      bar?.update(done, { slot, kind });
    });
    bar?.stop();
    report(io, outcomes);
    return outcomes.some((o) => o.status !== "ingested") ? 1 : 0;
  } finally {
    bar?.stop();
  }
}

function bound(value: string, edge: "start" | "end", flag: string): string {
  const stamp = parseTimeBound(value, edge);
  if (stamp === undefined) throw new UsageError(`${flag} takes YYYY-MM-DD or a 14-digit UTC time YYYYMMDDHHMMSS; got ${value}`);
  return stamp;
}

function report(io: CliIo, outcomes: readonly SlotOutcome[]): void {
  for (const o of outcomes)
    if (o.status !== "ingested") io.err(`${o.slot} ${o.kind}: ${o.status}${o.error ? ` (${o.error})` : ""}`);
  const ingested = outcomes.filter((o) => o.status === "ingested");
  const records = ingested.reduce((sum, o) => sum + (o.records ?? 0), 0);
  const count = (status: string): number => outcomes.filter((o) => o.status === status).length;
  io.out(
    `followed ${outcomes.length} slots: ${ingested.length} ingested (${records} records), ${count("pending")} pending, ` +
      `${count("failed")} failed, ${count("missing")} missing`,
  );
}
