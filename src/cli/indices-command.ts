import { resolve } from "node:path";
import type { Container } from "../container.js";
import type { IndexLifecycle } from "../ports/index-lifecycle.js";
import { toStamp } from "../shared/timestamps.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./usage.js";

// `newsindex indices ahead|retain|snapshot|snapshots|restore`: the scaled index's monthly indices, for operators
// (docs/operators.md, "Index lifecycle"). Months are calendar months of collection, UTC.

export interface IndicesFlags {
  months?: string | undefined;
  "keep-months"?: string | undefined;
  "dry-run"?: boolean | undefined;
  repo?: string | undefined;
  name?: string | undefined;
  month?: string | undefined;
  json?: boolean | undefined;
}

const MONTH = /^\d{6}$/;
/** OpenSearch's snapshot names: lower case, no spaces or separators it reserves. */
const SNAPSHOT_NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export async function indicesCommand(container: Container, args: string[], flags: IndicesFlags, io: CliIo): Promise<number> {
  const lifecycle = container.lifecycle;
  const [action, ...rest] = args;
  if (lifecycle === undefined) {
    throw new UsageError("indices commands manage the scaled index: set NEWSINDEX_INDEX=opensearch");
  }
  const thisMonth = toStamp(container.clock.now()).slice(0, 6);
  const print = (value: unknown, human: string): void => io.out(flags.json ? JSON.stringify(value) : human);
  switch (action) {
    case "ahead": {
      const months = count(flags.months ?? "1", "--months", 0, 24);
      const wanted = Array.from({ length: months + 1 }, (_, i) => shiftMonth(thisMonth, i));
      const out = await lifecycle.createMonths(wanted);
      print(out, `created ${list(out.created)}; existing ${list(out.existing)}`);
      return 0;
    }
    case "retain": {
      if (flags["keep-months"] === undefined) throw new UsageError("indices retain needs --keep-months N");
      const keep = count(flags["keep-months"], "--keep-months", 1, 1200);
      const oldestKept = shiftMonth(thisMonth, -(keep - 1));
      const dryRun = flags["dry-run"] === true;
      const out = await lifecycle.dropMonthsBefore(oldestKept, dryRun);
      print(
        { ...out, oldest_kept: oldestKept, dry_run: dryRun },
        `${dryRun ? "would drop" : "dropped"} ${list(out.dropped)}; kept ${list(out.kept)} (from ${oldestKept})`,
      );
      return 0;
    }
    case "snapshot": {
      const name = flags.name ?? `newsindex-${toStamp(container.clock.now())}`;
      if (!SNAPSHOT_NAME.test(name)) throw new UsageError(`--name ${name}: lower-case letters, digits, '.', '_' and '-'`);
      const out = await lifecycle.snapshot(repo(flags), name);
      print(out, `snapshot ${out.name}: ${out.state}, months ${list(out.months)}`);
      return out.state === "SUCCESS" ? 0 : 1;
    }
    case "snapshots": {
      const out = await lifecycle.snapshots(repo(flags));
      print(out, out.map((s) => `${s.name}\t${s.state}\t${s.startedAt}\t${list(s.months)}`).join("\n") || "no snapshot");
      return 0;
    }
    case "restore": {
      const [name] = rest;
      if (name === undefined) throw new UsageError("indices restore needs a snapshot NAME");
      if (flags.month !== undefined && !MONTH.test(flags.month)) throw new UsageError("--month takes YYYYMM");
      const out = await restore(lifecycle, repo(flags), name, flags.month);
      print(out, `restored ${list(out.months)} from ${out.snapshot}`);
      return 0;
    }
    default:
      throw new UsageError(`indices: unknown action ${action ?? "(none)"}; ahead, retain, snapshot, snapshots or restore`);
  }
}

function restore(lifecycle: IndexLifecycle, location: string, name: string, month: string | undefined) {
  return lifecycle.restore(location, name, month === undefined ? undefined : [month]);
}

/** The repository directory: absolute, as the nodes resolve it against their own `path.repo`. */
function repo(flags: IndicesFlags): string {
  if (flags.repo === undefined) throw new UsageError("--repo DIR is needed: a directory under every node's path.repo");
  return resolve(flags.repo);
}

function count(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) throw new UsageError(`${flag} takes a whole number from ${min} to ${max}`);
  return n;
}

/** `YYYYMM` moved by `by` months. */
export function shiftMonth(month: string, by: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(4, 6)) - 1 + by;
  return `${Math.floor(index / 12)}${String((index % 12) + 1).padStart(2, "0")}`;
}

function list(months: readonly string[]): string {
  return months.length === 0 ? "none" : months.join(", ");
}
