import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { PublisherCountryLookup } from "../../src/adapters/gdelt/publisher-country.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { parseKeywordQuery, type KeywordQuery } from "../../src/domain/keyword-query.js";
import { SAMPLE_FILES } from "./test-server.js";

// Test data made from real GKG records: rows of a bundled raw GKG 2.1 file,
// copied with fresh ids and batch times where a test needs more of them (a tie
// group bigger than a page or than the cursor's 5,000 limit).

const COL_ID = 0;
const COL_DATE = 1;
const COL_QUOTATIONS = 22;
const COL_EXTRAS = 26;
const PRECISE = /<PAGE_PRECISEPUBTIMESTAMP>[^<]*<\/PAGE_PRECISEPUBTIMESTAMP>/g;

/** The 27 fields of every record of a raw (TSV) GKG file. */
export function realRows(file = SAMPLE_FILES.batch2023): string[][] {
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.split("\t"));
}

/**
 * `count` real records (cycling through `rows`) collected at `stamp` with ids
 * `<stamp>-<prefix><n>` and no precise publication time, so they all share
 * published_at = `stamp`, as GDELT's own batches do.
 */
export function tieGroup(rows: readonly string[][], count: number, stamp: string, prefix = "G"): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < count; i++) {
    const fields = [...(rows[i % rows.length] as string[])];
    fields[COL_ID] = `${stamp}-${prefix}${i}`;
    fields[COL_DATE] = stamp;
    fields[COL_EXTRAS] = (fields[COL_EXTRAS] ?? "").replace(PRECISE, "");
    out.push(fields);
  }
  return out;
}

/**
 * Real records whose quotations name the verb introducing them. The bundled
 * sample leaves GDELT's verb slot empty everywhere, so these fill it in
 * (`offset|length|verb|quote`), keeping every other field as recorded.
 */
export function withQuoteVerb(rows: readonly string[][], verb: string, stamp: string, count: number): string[][] {
  const quoted = rows.filter((r) => (r[COL_QUOTATIONS] ?? "") !== "").slice(0, count);
  return quoted.map((row, i) => {
    const fields = [...row];
    fields[COL_ID] = `${stamp}-Q${i}`;
    fields[COL_DATE] = stamp;
    fields[COL_QUOTATIONS] = (fields[COL_QUOTATIONS] ?? "")
      .split("#")
      .map((q) => {
        const parts = q.split("|");
        if (parts.length >= 4) parts[2] = verb;
        return parts.join("|");
      })
      .join("#");
    return fields;
  });
}

export function writeGkgFile(dir: string, name: string, rows: readonly string[][]): string {
  const path = join(dir, name);
  writeFileSync(path, rows.map((fields) => fields.join("\t")).join("\n") + "\n");
  return path;
}

/** The articles of bundled GKG files, parsed by the real source (bad lines skipped). */
export async function readArticles(files: readonly string[]): Promise<ArticleDetail[]> {
  const source = new GkgArticleSource(await PublisherCountryLookup.load());
  const articles: ArticleDetail[] = [];
  for (const file of files) for await (const record of source.read(file)) if (record.ok) articles.push(record.article);
  return articles;
}

/** A keyword query, as the API parses `q`. */
export function words(q: string): KeywordQuery {
  const parsed = parseKeywordQuery(q);
  if (!parsed) throw new Error(`no words in ${q}`);
  return parsed;
}
