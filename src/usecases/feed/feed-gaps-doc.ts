import type { SlotLedger } from "../../ports/slot-ledger.js";
import { parseStamp } from "../../shared/timestamps.js";
import { overdue } from "./feed-coverage.js";

// The live section of /docs/completeness.md: the slots of the feed the index lacks, read from the ledger at each
// request, so a client can tell an empty window from a hole.

/** Slots listed at most; the count stays exact. */
const LISTED = 500;

export async function feedGapsSection(ledger: SlotLedger | undefined, nowMs: number): Promise<string> {
  const head = "\n## Live feed: missing and failed slots\n\n";
  const rows = ledger === undefined ? [] : await ledger.list();
  if (rows.length === 0) {
    return `${head}This server does not follow GDELT's live feed: its index holds the files its operator ingested, and no slot is recorded as missing.\n`;
  }
  const first = rows[0]?.slot as string;
  const last = rows[rows.length - 1]?.slot as string;
  const holes = rows.filter((r) => r.status === "missing" || r.status === "failed");
  const pending = rows.filter((r) => r.status === "pending");
  const ingested = rows.filter((r) => r.status === "ingested" && r.kind === "gkg").map((r) => r.slot);
  const newest = ingested[ingested.length - 1];
  const lines = [
    `${head}This server follows GDELT's feed (a GKG file every 15 minutes, and a translingual one beside it). Its ledger spans the slots ${first} to ${last} (UTC; a slot holds what GDELT collected in the 15 minutes up to its time). ` +
      `An answer whose window holds a slot listed below is \`partial: true\` with \`coverage: range_too_wide\`; one reaching past the newest slot in the index while the next is being ingested or overdue is \`coverage: recent_unavailable\`. ` +
      `This section is generated from the ledger at each request.`,
    "",
    `Newest slot in the index: ${newest ?? "none yet"}${newest !== undefined && overdue(nowMs - (parseStamp(newest) ?? nowMs)) ? " (the next is overdue)" : ""}. Slots being fetched or retried: ${pending.length}.`,
    "",
  ];
  if (holes.length === 0) {
    lines.push(
      `No slot is missing or failed: every slot from ${first} to ${last} that GDELT published is in the index, or on its way.`,
    );
  } else {
    lines.push(`${holes.length} slots are not in the index:`, "", "| slot | kind | status | reason |", "|---|---|---|---|");
    for (const r of holes.slice(0, LISTED))
      lines.push(`| ${r.slot} | ${r.kind} | ${r.status} | ${(r.last_error ?? "").replace(/\|/g, "\\|")} |`);
    if (holes.length > LISTED)
      lines.push("", `(${holes.length - LISTED} more, newest last: the operator's \`newsindex feed\` lists them all)`);
  }
  return lines.join("\n") + "\n";
}
