// Scales the real GDELT sample to N articles for the scale benchmark. Each new
// record recombines whole field groups of real records (the page from one,
// its locations, persons and organizations from records of the page's event,
// themes/GCAM and names/quotes/amounts from any), with a fresh id and a
// collection time in one of the 15-minute batches of several months. So term
// and entity distributions are the sample's own, every monthly index is
// populated, and articles without a precise publication time share their
// batch's timestamp, as in the real feed.
//
// How pages recur over time matters to story clustering. Spread evenly over
// the corpus, each of the sample's ~1,360 pages (title, URL, outlet) recurred
// every few hours for six months, and the same-story rules chained copies 72
// hours apart into stories spanning the whole corpus. Real news comes in
// bursts: one event's coverage, a syndicated headline and its rewrites, lands
// within a day or two. So the sample's pages are grouped into events (the pages
// the same-story rules join within the sample, with their real times and
// names), and each event recurs in "generations": about
// N / (1,360 * COPIES_PER_GENERATION) of them over the corpus, anchored at
// jittered, evenly spaced times, so two generations of one event seldom come
// within the 72-hour window of each other. Each generation takes a random share
// of the event's copies (most are small, a few large), and every copy is
// collected within BURST_MS of its generation's anchor. Copies take their names
// from the records of their own event, as syndicated copies do: names drawn
// from any record gave unrelated headlines that share two common words the same
// cast by chance, and at a million articles those chance matches joined a
// quarter of the corpus into one story.
//
// Which page an article copies is still a uniform draw over the sample, and
// its names a uniform draw over its event's records, so the corpus-wide
// distributions above stay the sample's own; what changes is when a page
// recurs and which names it comes with. Batches hold however many articles
// their time drew, as in the real feed. Seeded: the same options give the same
// corpus.

import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  type WriteStream,
} from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { createGzip, type Gzip } from "node:zlib";
import { readGkgRows } from "../../src/adapters/gdelt/gkg-lines.js";
import * as C from "../../src/adapters/gdelt/gkg-columns.js";
import { parseGkgRecord } from "../../src/adapters/gdelt/gkg-record.js";
import { PublisherCountryLookup } from "../../src/adapters/gdelt/publisher-country.js";
import { sameStory } from "../../src/domain/stories/same-story.js";
import { storyFeatures, type StoryFeatures } from "../../src/domain/stories/story-features.js";

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
  /** Identifies the corpus: the options and the generator's version. */
  key: string;
  /** How pages recur, for the report. */
  headlines: string;
}

/** Bumped whenever the same options would generate a different corpus. */
const GENERATOR_VERSION = 2;
/** A generation's copies are collected within this long after its anchor. */
const BURST_MS = 2 * 86_400_000;
/** Mean copies of each of an event's pages per generation. */
const COPIES_PER_GENERATION = 30;
const HEADLINES = `each real event's pages recur in bursts, about ${COPIES_PER_GENERATION} copies of a page within ${BURST_MS / 86_400_000} days, with names from the event's own records`;

const SAMPLE_DIR = new URL("../../data/gkg/", import.meta.url).pathname;

/** The page: outlet, URL, language, title/authors/links, images, tone. */
const PAGE: readonly number[] = [
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
];

/** Columns that travel together, each group drawn from one real record of the page's event. */
const EVENT_GROUPS: readonly (readonly number[])[] = [
  [C.COL_V1_LOCATIONS, C.COL_V2_LOCATIONS],
  [C.COL_V1_PERSONS, C.COL_V2_PERSONS],
  [C.COL_V1_ORGANIZATIONS, C.COL_V2_ORGANIZATIONS],
];

/** Columns that travel together, each group drawn from any real record. */
const FREE_GROUPS: readonly (readonly number[])[] = [
  [C.COL_V1_COUNTS, C.COL_V21_COUNTS, C.COL_V1_THEMES, C.COL_V2_THEMES, C.COL_V2_GCAM],
  [C.COL_V21_DATES, C.COL_QUOTATIONS, C.COL_ALL_NAMES, C.COL_AMOUNTS],
];

const BATCH_MS = 15 * 60 * 1000;
const PRECISE = /<PAGE_PRECISEPUBTIMESTAMP>[^<]*<\/PAGE_PRECISEPUBTIMESTAMP>/;

/** Generates the corpus into `outDir` (one gzip file per day), or reuses one already complete there. */
export async function generateCorpus(options: CorpusOptions): Promise<Corpus> {
  const key = `v${GENERATOR_VERSION}-${options.articles}-${options.firstMonth}-${options.months}-${options.seed}`;
  const done = join(options.outDir, "COMPLETE.json");
  if (existsSync(done)) {
    const previous = JSON.parse(readFileSync(done, "utf8")) as CorpusOptions & Corpus;
    if (previous.key === key) return { files: previous.files, articles: previous.articles, key, headlines: HEADLINES };
  }
  rmSync(options.outDir, { recursive: true, force: true });
  mkdirSync(options.outDir, { recursive: true });

  const sample = await sampleRows();
  const rows = sample.map((r) => r.fields);
  const random = mulberry32(options.seed);
  const pick = (): string[] => rows[Math.floor(random() * rows.length)] as string[];

  const [year, month] = options.firstMonth.split("-").map(Number) as [number, number];
  const start = Date.UTC(year, month - 1, 1);
  const end = Date.UTC(year, month - 1 + options.months, 1);
  const batches = Math.floor((end - start) / BATCH_MS);
  const schedule = scheduleCopies(sample, options.articles, start, batches, random);

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
    const from = schedule.batchStart[b] as number;
    const until = schedule.batchStart[b + 1] as number;
    for (let k = 0; from + k < until; k++, written++) {
      const page = schedule.rowOf[from + k] as number;
      const fields = (rows[page] as string[]).slice();
      const event = schedule.eventRows[schedule.eventOf[page] as number] as number[];
      for (const group of EVENT_GROUPS) {
        const donor = rows[event[Math.floor(random() * event.length)] as number] as string[];
        for (const column of group) fields[column] = donor[column] ?? "";
      }
      for (const group of FREE_GROUPS) {
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
  writeFileSync(done, JSON.stringify({ ...options, key, files, articles: written }, null, 2));
  return { files, articles: written, key, headlines: HEADLINES };
}

interface SampleRow {
  fields: string[];
  /** The record as clustering sees it, at its real time; undefined when it does not parse. */
  features: StoryFeatures | undefined;
}

/** The page each article copies, in batch order: article i of batch b copies `rowOf[batchStart[b] + i]`. */
interface Schedule {
  rowOf: Int32Array;
  batchStart: Int32Array;
  /** Each sample row's event, and each event's rows. */
  eventOf: number[];
  eventRows: number[][];
}

/**
 * Draws each article's page uniformly from the sample, then one of its event's generations (by the
 * generation's weight) and a collection time within that generation's burst.
 */
function scheduleCopies(
  sample: readonly SampleRow[],
  articles: number,
  start: number,
  batches: number,
  random: () => number,
): Schedule {
  const eventOf = events(sample);
  const eventCount = Math.max(0, ...eventOf) + 1;
  const eventRows: number[][] = Array.from({ length: eventCount }, () => []);
  eventOf.forEach((e, row) => eventRows[e]?.push(row));
  const perEvent = Math.max(1, Math.round(articles / (sample.length * COPIES_PER_GENERATION)));
  const end = start + batches * BATCH_MS;
  // Anchors from one burst before the start, so that the first days are as covered as the rest.
  const slot = (end - start + BURST_MS) / perEvent;
  const anchors: Float64Array[] = [];
  const cumulative: Float64Array[] = [];
  for (let e = 0; e < eventCount; e++) {
    const phase = random() * 0.5;
    const a = new Float64Array(perEvent);
    const c = new Float64Array(perEvent);
    let sum = 0;
    for (let g = 0; g < perEvent; g++) {
      // Jitter within half a slot keeps consecutive generations of one event apart.
      a[g] = start - BURST_MS + (g + phase + random() * 0.5) * slot;
      // Exponential weights: most generations small, a few large, as with real coverage.
      sum += -Math.log(1 - random());
      c[g] = sum;
    }
    anchors.push(a);
    cumulative.push(c);
  }

  const rowOf = new Int32Array(articles);
  const batchOf = new Int32Array(articles);
  for (let i = 0; i < articles; i++) {
    const row = Math.floor(random() * sample.length);
    const e = eventOf[row] as number;
    const c = cumulative[e] as Float64Array;
    const r = random() * (c[c.length - 1] as number);
    let g = 0;
    while ((c[g] as number) <= r && g < c.length - 1) g++;
    // The part of the burst inside the corpus.
    const anchor = (anchors[e] as Float64Array)[g] as number;
    const from = Math.max(start, anchor);
    const to = Math.min(end, anchor + BURST_MS);
    const time = to > from ? from + random() * (to - from) : Math.min(Math.max(anchor, start), end - 1);
    rowOf[i] = row;
    batchOf[i] = Math.min(batches - 1, Math.floor((time - start) / BATCH_MS));
  }
  // Counting sort by batch; within a batch, draw order.
  const batchStart = new Int32Array(batches + 1);
  for (const b of batchOf) batchStart[b + 1] = (batchStart[b + 1] as number) + 1;
  for (let b = 0; b < batches; b++) batchStart[b + 1] = (batchStart[b + 1] as number) + (batchStart[b] as number);
  const next = batchStart.slice(0, batches);
  const sorted = new Int32Array(articles);
  for (let i = 0; i < articles; i++) {
    const b = batchOf[i] as number;
    const at = next[b] as number;
    sorted[at] = rowOf[i] as number;
    next[b] = at + 1;
  }
  return { rowOf: sorted, batchStart, eventOf, eventRows };
}

/** Each sample row's event: the connected components of the same-story test over the sample's own records. */
function events(sample: readonly SampleRow[]): number[] {
  const parent = sample.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  for (let i = 0; i < sample.length; i++) {
    const a = sample[i]?.features;
    if (a === undefined) continue;
    for (let j = i + 1; j < sample.length; j++) {
      const b = sample[j]?.features;
      if (b !== undefined && sameStory(a, b)) parent[find(j)] = find(i);
    }
  }
  const ids = new Map<number, number>();
  return sample.map((_, i) => {
    const root = find(i);
    const id = ids.get(root) ?? ids.size;
    ids.set(root, id);
    return id;
  });
}

/** Every well-formed record of the bundled sample as 27 TSV-safe fields, with its story features. */
async function sampleRows(): Promise<SampleRow[]> {
  const lookup = await PublisherCountryLookup.load();
  const rows: SampleRow[] = [];
  for (const name of readdirSync(SAMPLE_DIR).sort()) {
    if (!name.endsWith(".gz")) continue;
    for await (const row of readGkgRows(join(SAMPLE_DIR, name))) {
      if ("error" in row) continue;
      const parsed = parseGkgRecord(row.fields, lookup);
      rows.push({
        fields: row.fields.map((f) => f.replace(/[\t\r\n]+/g, " ")),
        features: parsed.ok ? storyFeatures(parsed.article) : undefined,
      });
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
