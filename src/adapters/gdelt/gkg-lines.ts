import { csvRecords } from "./csv-records.js";
import { BIGQUERY_COLUMN_NAMES, BIGQUERY_HEADER_PREFIX, GKG_COLUMN_COUNT } from "./gkg-columns.js";
import { openDecompressed } from "./input-stream.js";
import { DEFAULT_MAX_LINE_CHARS, physicalLines, type PhysicalLine } from "./physical-lines.js";

// A GKG file as a stream of 27-field rows, whatever its packaging: raw GKG 2.1 TSV (no
// header) or a BigQuery CSV export (header `GKGRECORDID,...`), plain, gzip or zip.
// The format is decided by the first non-blank line of the decompressed text.

export type GkgRow = { line: number; fields: string[] } | { line: number; error: string };

export type GkgFormat = "tsv" | "bigquery";

// Every GKG record id begins with its 14-digit batch time; BigQuery may quote it.
const GKG_RECORD_START = /^"?\d{14}-/;

function tsvRow(physical: PhysicalLine): GkgRow | null {
  if ("tooLong" in physical) return { line: physical.line, error: "line too long" };
  if (physical.text.trim() === "") return null;
  const fields = physical.text.split("\t");
  if (fields.length !== GKG_COLUMN_COUNT) {
    return { line: physical.line, error: `expected ${GKG_COLUMN_COUNT} tab-separated fields, got ${fields.length}` };
  }
  return { line: physical.line, fields };
}

/** For each GKG column, its index in the BigQuery header (-1 when the export left it out). */
function columnPositions(header: readonly string[]): number[] {
  const trimmed = header.map((name) => name.trim());
  const lower = trimmed.map((name) => name.toLowerCase());
  return BIGQUERY_COLUMN_NAMES.map((name) => {
    const exact = trimmed.indexOf(name);
    return exact !== -1 ? exact : lower.indexOf(name.toLowerCase());
  });
}

async function* bigQueryRows(lines: AsyncIterable<PhysicalLine>): AsyncGenerator<GkgRow> {
  let positions: number[] | null = null;
  let width = GKG_COLUMN_COUNT;
  const records = csvRecords(lines, { recordStart: GKG_RECORD_START, maxRecordChars: DEFAULT_MAX_LINE_CHARS });
  for await (const record of records) {
    if (positions === null) {
      // The first record is the header. If it cannot be read, assume BigQuery's own order.
      if ("error" in record) {
        positions = BIGQUERY_COLUMN_NAMES.map((_, i) => i);
        yield { line: record.line, error: `unreadable BigQuery header (${record.error})` };
      } else {
        positions = columnPositions(record.fields);
        width = record.fields.length;
      }
      continue;
    }
    if ("error" in record) {
      yield record;
      continue;
    }
    if (record.fields.length !== width) {
      yield { line: record.line, error: `expected ${width} comma-separated fields, got ${record.fields.length}` };
      continue;
    }
    const fields = record.fields;
    yield { line: record.line, fields: positions.map((i) => (i === -1 ? "" : (fields[i] ?? ""))) };
  }
}

async function* tsvRows(lines: AsyncIterable<PhysicalLine>): AsyncGenerator<GkgRow> {
  for await (const physical of lines) {
    const row = tsvRow(physical);
    if (row !== null) yield row;
  }
}

/** Rows of already-split physical lines; detects TSV vs BigQuery CSV on the first non-blank line. */
export async function* gkgRows(lines: AsyncIterable<PhysicalLine>): AsyncGenerator<GkgRow> {
  const iterator = lines[Symbol.asyncIterator]();
  try {
    const head: PhysicalLine[] = [];
    let first: PhysicalLine | undefined;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      head.push(next.value);
      if ("tooLong" in next.value || next.value.text.trim() !== "") {
        first = next.value;
        break;
      }
    }
    if (first === undefined) return;
    const format: GkgFormat = "text" in first && first.text.startsWith(BIGQUERY_HEADER_PREFIX) ? "bigquery" : "tsv";
    const replay: AsyncIterable<PhysicalLine> = {
      async *[Symbol.asyncIterator]() {
        yield* head;
        for (;;) {
          const next = await iterator.next();
          if (next.done) return;
          yield next.value;
        }
      },
    };
    yield* format === "bigquery" ? bigQueryRows(replay) : tsvRows(replay);
  } finally {
    await iterator.return?.();
  }
}

/** Rows of the file at `path` (`.csv`, `.csv.gz`, `.csv.zip`, BigQuery export). */
export async function* readGkgRows(path: string): AsyncGenerator<GkgRow> {
  const stream = await openDecompressed(path);
  try {
    yield* gkgRows(physicalLines(stream));
  } finally {
    stream.destroy();
  }
}
