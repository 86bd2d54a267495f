// Scales the real GDELT sample to N articles for the scale benchmark. Each new
// record recombines whole field groups of several real records (page and
// source from one, themes and GCAM from another, locations, persons,
// organizations, names/quotes/amounts from others), with a fresh id and a
// timestamp spread over several months of 15-minute batches. So term and
// entity distributions are the sample's own, every monthly index is populated,
// and articles without a precise publication time share their batch's
// timestamp, as in the real feed.

import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { createGzip, type Gzip } from "node:zlib";
import { readGkgRows } from "../../src/adapters/gdelt/gkg-lines.js";
import * as C from "../../src/adapters/gdelt/gkg-columns.js";

export interface CorpusOptions {
  /** Articles to generate. */
  articles: number;
  /** First month, `YYYY-MM`; the corpus covers `months` calendar months from it. */
  firstMonth: string;
  months: number;
  outDir: string;
  seed: number;
}

export interface Corpus {
  files: string[];
  articles: number;
}

const SAMPLE_DIR = new URL("../../data/gkg/", import.meta.url).pathname;

/** Columns that travel together, drawn from one real record each. */
const GROUPS: readonly (readonly number[])[] = [
  // The page: outlet, URL, language, title/authors/links, images, tone.
  [
    C.COL_SOURCE_COLLECTION,
    C.COL_SOURCE_COMMON_NAME,
    C.COL_DOCUMENT_IDENTIFIER,
    C.COL_V15_TONE,
    C.COL_SHARING_IMAGE,
    C.COL_RELATED_IMAGES,
    C.COL_SOCIAL_IMAGE_EMBEDS,
    C.COL_SOCIAL_VIDEO_EMBEDS,
    C.COL_TRANSLATION_INFO,
    C.COL_EXTRAS_XML,
  ],
  [C.COL_V1_COUNTS, C.COL_V21_COUNTS, C.COL_V1_THEMES, C.COL_V2_THEMES, C.COL_V2_GCAM],
  [C.COL_V1_LOCATIONS, C.COL_V2_LOCATIONS],
  [C.COL_V1_PERSONS, C.COL_V2_PERSONS],
  [C.COL_V1_ORGANIZATIONS, C.COL_V2_ORGANIZATIONS],
  [C.COL_V21_DATES, C.COL_QUOTATIONS, C.COL_ALL_NAMES, C.COL_AMOUNTS],
];

const BATCH_MS = 15 * 60 * 1000;
const PRECISE = /<PAGE_PRECISEPUBTIMESTAMP>[^<]*<\/PAGE_PRECISEPUBTIMESTAMP>/;

/** Generates the corpus into `outDir` (one gzip file per day), or reuses one already complete there. */
export async function generateCorpus(options: CorpusOptions): Promise<Corpus> {
  const done = join(options.outDir, "COMPLETE.json");
  if (existsSync(done)) {
    const previous = JSON.parse(readFileSync(done, "utf8")) as CorpusOptions & Corpus;
    if (previous.articles === options.articles && previous.seed === options.seed && previous.months === options.months) {
      return { files: previous.files, articles: previous.articles };
    }
  }
  mkdirSync(options.outDir, { recursive: true });

  const rows = await sampleRows();
  const random = mulberry32(options.seed);
  const pick = (): string[] => rows[Math.floor(random() * rows.length)] as string[];

  const [year, month] = options.firstMonth.split("-").map(Number) as [number, number];
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month - 1 + options.months, 1);
  const batches = Math.floor((end - start) / BATCH_MS);

  const files: string[] = [];
  let out: { gzip: Gzip; file: WriteStream } | undefined;
  let outDay = "";
  let buffered: string[] = [];
  const flush = async (): Promise<void> => {
    if (!out || buffered.length === 0) return;
    if (!out.gzip.write(buffered.join(""))) await once(out.gzip, "drain");
    buffered = [];
  };
  const close = async (): Promise<void> => {
    if (!out) return;
    await flush();
    out.gzip.end();
    await once(out.file, "finish");
  };

  let written = 0;
  for (let b = 0; b < batches; b++) {
    const batchMs = start + b * BATCH_MS;
    const stamp = toStamp(batchMs);
    const day = stamp.slice(0, 8);
    if (day !== outDay) {
      await close();
      const path = join(options.outDir, `${day}.gkg.csv.gz`);
      const gzip = createGzip({ level: 1 });
      out = { gzip, file: gzip.pipe(createWriteStream(path)) };
      outDay = day;
      files.push(path);
    }
    // Even spread: batch b gets the articles whose index falls into it.
    const until = Math.round(((b + 1) * options.articles) / batches);
    for (let k = 0; written < until; k++, written++) {
      const fields = pick().slice();
      for (const group of GROUPS.slice(1)) {
        const donor = pick();
        for (const column of group) fields[column] = donor[column] ?? "";
      }
      const translingual = (fields[C.COL_TRANSLATION_INFO] ?? "") !== "";
      fields[C.COL_GKGRECORDID] = `${stamp}-${translingual ? "T" : ""}${k}`;
      fields[C.COL_DATE] = stamp;
      const extras = fields[C.COL_EXTRAS_XML] ?? "";
      if (PRECISE.test(extras)) {
        // A page with its own publication time: up to six hours before collection, to the second.
        const published = toStamp(batchMs - Math.floor(random() * 6 * 3600) * 1000);
        fields[C.COL_EXTRAS_XML] = extras.replace(PRECISE, `<PAGE_PRECISEPUBTIMESTAMP>${published}</PAGE_PRECISEPUBTIMESTAMP>`);
      }
      buffered.push(fields.join("\t") + "\n");
      if (buffered.length >= 500) await flush();
    }
  }
  await close();
  writeFileSync(done, JSON.stringify({ ...options, files, articles: written }, null, 2));
  return { files, articles: written };
}

/** Every well-formed record of the bundled sample as 27 TSV-safe fields. */
async function sampleRows(): Promise<string[][]> {
  const rows: string[][] = [];
  for (const name of readdirSync(SAMPLE_DIR).sort()) {
    if (!name.endsWith(".gz")) continue;
    for await (const row of readGkgRows(join(SAMPLE_DIR, name))) {
      if ("error" in row) continue;
      rows.push(row.fields.map((f) => f.replace(/[\t\r\n]+/g, " ")));
    }
  }
  return rows;
}

function toStamp(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

/** Small seeded PRNG: the same seed gives the same corpus. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
