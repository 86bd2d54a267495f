// Bytes on disk per article of a data dir's index and story state, per table and index (SQLite's dbstat), summed
// over its monthly indexes: what each part of the layout costs.
//   node --import tsx bench/size/size-breakdown.mts DATA_DIR [--markdown]

import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

interface Part {
  file: "index" | "stories.db";
  name: string;
  bytes: number;
}

function partsOf(path: string, file: Part["file"]): Part[] {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name").all() as Array<{
      name: string;
      bytes: number;
    }>;
    // FTS5's shadow tables and SQLite's own indexes under the name a reader knows them by.
    return rows.map((r) => ({ file, name: r.name.replace(/^articles_fts_.*/, "articles_fts (FTS5)"), bytes: r.bytes }));
  } finally {
    db.close();
  }
}

const [dataDir, flag] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: size-breakdown.mts DATA_DIR [--markdown]");
const indexDir = join(dataDir, "index");
const months = readdirSync(indexDir).filter((f) => /^articles-\d{6}\.db$/.test(f));
let articles = 0;
let fileBytes = 0;
const parts: Part[] = [];
for (const file of months) {
  const path = join(indexDir, file);
  const db = new Database(path, { readonly: true });
  articles += db.prepare("SELECT count(*) FROM articles").pluck().get() as number;
  db.close();
  fileBytes += statSync(path).size;
  parts.push(...partsOf(path, "index"));
}
const storiesPath = join(dataDir, "stories.db");
const storiesBytes = existsSync(storiesPath) ? statSync(storiesPath).size : 0;
if (storiesBytes > 0) parts.push(...partsOf(storiesPath, "stories.db"));
const byName = new Map<string, Part>();
for (const p of parts) {
  const key = `${p.file}:${p.name}`;
  const seen = byName.get(key);
  if (seen) seen.bytes += p.bytes;
  else byName.set(key, { ...p });
}
const perArticle = (bytes: number) => Math.round(bytes / articles);
const sorted = [...byName.values()].sort((a, b) => b.bytes - a.bytes);
const total = fileBytes + storiesBytes;
if (flag === "--markdown") {
  console.log(`| part | file | B/article | share |\n|---|---|---:|---:|`);
  for (const p of sorted)
    console.log(
      `| ${p.name} | ${p.file} | ${perArticle(p.bytes).toLocaleString("en")} | ${((100 * p.bytes) / total).toFixed(1)} % |`,
    );
  console.log(`| **monthly indexes (${months.length} files)** | index | **${perArticle(fileBytes).toLocaleString("en")}** | |`);
  console.log(`| **stories.db** | stories.db | **${perArticle(storiesBytes).toLocaleString("en")}** | |`);
  console.log(
    `| **index + stories** | | **${perArticle(total).toLocaleString("en")}** | ${articles.toLocaleString("en")} articles, ${(total / 2 ** 20).toFixed(1)} MiB |`,
  );
} else {
  for (const p of sorted)
    console.log(`${p.file.padEnd(10)} ${p.name.padEnd(32)} ${String(perArticle(p.bytes)).padStart(6)} B/article`);
  console.log(
    `articles ${articles}; index files ${perArticle(fileBytes)} B/article; stories.db ${perArticle(storiesBytes)}; total ${perArticle(total)} (${(total / 2 ** 20).toFixed(1)} MiB)`,
  );
}
