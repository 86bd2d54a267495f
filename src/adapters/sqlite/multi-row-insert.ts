import type { StatementCache } from "./statement-cache.js";

// Multi-row INSERTs for the index writer: for small rows, the cost of running a
// statement, not of inserting a row, is the larger part, so rows go in many per
// statement.

export type InsertVerb = "INSERT OR IGNORE" | "INSERT OR REPLACE";

const built = new Map<string, string>();

/** `verb INTO target VALUES (?, ...), ...`: `rows` rows of `width` values, built once per shape. */
export function multiRowInsertSql(verb: InsertVerb, target: string, width: number, rows: number): string {
  const key = `${verb} ${target} ${width} ${rows}`;
  let sql = built.get(key);
  if (sql === undefined) {
    const row = `(${new Array<string>(width).fill("?").join(", ")})`;
    sql = `${verb} INTO ${target} VALUES ${new Array<string>(rows).fill(row).join(", ")}`;
    built.set(key, sql);
  }
  return sql;
}

/** Chunk sizes, largest first; the tail goes in smaller chunks, then single rows. */
const CHUNKS = [256, 32, 1];

/**
 * Inserts into `target` (`table (columns)`) the rows `order[0]`, `order[1]`, ... of `columns` (one array per column,
 * in the target's order), in that order, many per statement: rows sorted by an index's key land on the same pages.
 */
export function insertInOrder(
  statements: StatementCache,
  verb: InsertVerb,
  target: string,
  columns: ReadonlyArray<ArrayLike<number>>,
  order: ArrayLike<number>,
): void {
  const width = columns.length;
  const n = order.length;
  let i = 0;
  for (const rows of CHUNKS) {
    const insert = statements.get(multiRowInsertSql(verb, target, width, rows));
    const bound = new Array<number>(rows * width);
    for (; i + rows <= n; i += rows) {
      for (let j = 0; j < rows; j++) {
        const k = order[i + j] as number;
        for (let c = 0; c < width; c++) bound[width * j + c] = (columns[c] as ArrayLike<number>)[k] as number;
      }
      insert.run(bound);
    }
  }
}
