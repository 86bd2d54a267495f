import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Bytes of every file under `dir`. */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = statSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}

/** The monthly indexes of a data dir. */
export function monthlyIndexes(dataDir: string): number {
  return readdirSync(join(dataDir, "index")).filter((f) => /^articles-\d{6}\.db$/.test(f)).length;
}
