// What reading stored documents costs, in process on one monthly index: /doc (one document by id), a page (ten
// documents by id), export (every document, 200 rowids a read, as export lines). CPU and wall time per document,
// best of three rounds.
//   node --import tsx bench/size/read-cost.mts DATA_DIR MONTH

import { join } from "node:path";
import { ArticlePartition } from "../../src/adapters/sqlite/article-partition.js";
import { exportLines } from "../../src/adapters/sqlite/partition-export.js";

const [dataDir, month] = process.argv.slice(2);
if (!dataDir || !month) throw new Error("usage: read-cost.mts DATA_DIR MONTH");
const partition = new ArticlePartition(month, join(dataDir, "index", `articles-${month}.db`), { create: false });
const ids = partition.db.prepare("SELECT id FROM articles ORDER BY random() LIMIT 2000").pluck().all() as string[];
const rowids = partition.db.prepare("SELECT rowid FROM articles ORDER BY rowid").pluck().all() as number[];

function best(docs: number, run: () => void): { wallUs: number; cpuUs: number } {
  let wall = Infinity;
  let cpu = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = process.hrtime.bigint();
    const usage = process.cpuUsage();
    run();
    const used = process.cpuUsage(usage);
    wall = Math.min(wall, Number(process.hrtime.bigint() - started) / 1e3 / docs);
    cpu = Math.min(cpu, (used.user + used.system) / docs);
  }
  return { wallUs: Number(wall.toFixed(1)), cpuUs: Number(cpu.toFixed(1)) };
}

const doc = best(ids.length, () => {
  for (const id of ids) if (partition.getDoc(id) === undefined) throw new Error(`no ${id}`);
});
const page = best(ids.length, () => {
  for (let at = 0; at < ids.length; at += 10) partition.getDocs(ids.slice(at, at + 10));
});
const exported = best(rowids.length, () => {
  for (let at = 0; at < rowids.length; at += 200) exportLines(partition, rowids.slice(at, at + 200), "full");
});
console.log(JSON.stringify({ month, articles: rowids.length, perDocument: { doc, page, export: exported } }));
partition.close();
