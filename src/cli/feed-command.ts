import type { Container } from "../container.js";
import type { SlotEntry } from "../ports/slot-ledger.js";
import type { CliIo } from "./cli-io.js";

// `newsindex feed [--json]`: the slot ledger, and the slots that are not in the index.

export interface FeedReport {
  slots: Array<Pick<SlotEntry, "slot" | "kind" | "status" | "md5_verified" | "records" | "attempts" | "last_error">>;
  summary: {
    ingested: number;
    pending: number;
    failed: SlotRef[];
    missing: SlotRef[];
  };
}

interface SlotRef {
  slot: string;
  kind: string;
  last_error: string | null;
}

export async function feedReport(container: Container): Promise<FeedReport> {
  const rows = await container.feedLedger.list();
  const ref = (e: SlotEntry): SlotRef => ({ slot: e.slot, kind: e.kind, last_error: e.last_error });
  return {
    slots: rows.map((e) => ({
      slot: e.slot,
      kind: e.kind,
      status: e.status,
      md5_verified: e.md5_verified,
      records: e.records,
      attempts: e.attempts,
      last_error: e.last_error,
    })),
    summary: {
      ingested: rows.filter((e) => e.status === "ingested").length,
      pending: rows.filter((e) => e.status === "pending").length,
      failed: rows.filter((e) => e.status === "failed").map(ref),
      missing: rows.filter((e) => e.status === "missing").map(ref),
    },
  };
}

export async function feedCommand(io: CliIo, container: Container, values: { json?: boolean | undefined }): Promise<number> {
  const report = await feedReport(container);
  if (values.json) {
    io.out(JSON.stringify(report, null, 2));
    return 0;
  }
  for (const s of report.slots) {
    const records = s.records === null ? "" : ` ${s.records} records`;
    const error = s.last_error === null ? "" : ` (${s.last_error})`;
    io.out(`${s.slot} ${s.kind.padEnd(11)} ${s.status.padEnd(8)} attempts ${s.attempts}${records}${error}`);
  }
  const { summary } = report;
  io.out(
    `${report.slots.length} slots: ${summary.ingested} ingested, ${summary.pending} pending, ` +
      `${summary.failed.length} failed, ${summary.missing.length} missing`,
  );
  return 0;
}
