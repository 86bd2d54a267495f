import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { json, type TestServer } from "../support/test-server.js";

// A real GKG record reported by as many outlets as a test needs: copies of one
// bundled record (its title, entities and themes), each at an outlet of its
// own, collected at a given batch time. The ingest clusters them into one story.

const COL_ID = 0;
const COL_DATE = 1;
const COL_SOURCE = 3;
const COL_URL = 4;
const COL_EXTRAS = 26;
const PRECISE = /<PAGE_PRECISEPUBTIMESTAMP>[^<]*<\/PAGE_PRECISEPUBTIMESTAMP>/g;

/** "93 tonnes of green chillies imported in a week amid skyrocketing prices" (bdnews24.com), 2 July 2023. */
export const CHILLIES_ID = "20230702153000-26";
export const CHILLIES_Q = "chillies skyrocketing";

/** Outlets `from` to `to - 1` reporting the record, collected at `stamp`. */
export function reportsOf(recordId: string, from: number, to: number, stamp: string, tag = "W"): string[][] {
  const row = realRows().find((r) => r[COL_ID] === recordId);
  if (row === undefined) throw new Error(`no record ${recordId} in the sample`);
  const out: string[][] = [];
  for (let n = from; n < to; n++) {
    const fields = [...row];
    fields[COL_ID] = `${stamp}-${tag}${n}`;
    fields[COL_DATE] = stamp;
    fields[COL_SOURCE] = `outlet${n}.example.com`;
    fields[COL_URL] = `https://outlet${n}.example.com/news/green-chillies-imported`;
    fields[COL_EXTRAS] = (fields[COL_EXTRAS] ?? "").replace(PRECISE, "");
    out.push(fields);
  }
  return out;
}

export function writeReports(rows: string[][], name: string): string {
  return writeGkgFile(mkdtempSync(join(tmpdir(), "newsindex-watch-")), name, rows);
}

/** POST /watches with a JSON body. */
export function postWatch(server: TestServer, body: unknown, key = server.key, query = ""): Promise<Response> {
  return fetch(`${server.url}/watches${query}`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

export async function createWatch(server: TestServer, body: unknown, key = server.key): Promise<Record<string, unknown>> {
  const response = await postWatch(server, body, key);
  const created = await json(response);
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(created)}`);
  return created;
}

export interface EventPage {
  events: Array<Record<string, unknown> & { id: string; kind: string; story_id: string }>;
  next_after: string | null;
}

export async function eventsOf(server: TestServer, id: string, query = "", key = server.key): Promise<EventPage> {
  return json<EventPage>(await server.get(`/watches/${id}/events${query}`, key));
}

let batches = 0;

/** Ingests `outlets` fresh reports of a real record, collected five minutes before `nowMs`: news inside a run's window. */
export async function reportNow(server: TestServer, nowMs: number, outlets: number, recordId = CHILLIES_ID): Promise<void> {
  const stamp = new Date(nowMs - 5 * 60_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  batches++;
  const file = writeReports(reportsOf(recordId, 0, outlets, stamp, `B${batches}x`), `${stamp}-${batches}.gkg.csv`);
  await (await server.container.ingestService()).ingest([file]);
}

/** Distinct real stories, one outlet each, collected five minutes before `nowMs`. */
export async function storiesNow(server: TestServer, nowMs: number, count: number): Promise<void> {
  const stamp = new Date(nowMs - 5 * 60_000).toISOString().replace(/[-:T]/g, "").slice(0, 14);
  batches++;
  const file = writeGkgFile(
    mkdtempSync(join(tmpdir(), "newsindex-watch-")),
    `${stamp}-${batches}.gkg.csv`,
    tieGroup(realRows(), count, stamp, `S${batches}x`),
  );
  await (await server.container.ingestService()).ingest([file]);
}
