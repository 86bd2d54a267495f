import type { StatementCache } from "./statement-cache.js";

// Collects a write transaction's signal intensities and inserts them sorted by
// (signal, value), many rows per statement. The `(signal, value)` index is the
// costly part of a signal row: inserted in article order, each row lands on a
// random page of it; sorted, consecutive rows share pages, as postings do
// (postings-buffer.ts). The table's own key (article, signal) only grows at its
// end either way.

/** Chunk sizes, largest first; the tail of a transaction goes in smaller chunks, then single rows. */
const CHUNKS = [256, 32, 1];

export class SignalRowsBuffer {
  private articles: number[] = [];
  private signals: number[] = [];
  private values: number[] = [];

  constructor(private readonly statements: StatementCache) {}

  /** An article's signals: signals-v1 code and intensity, in pairs. */
  push(article: number, pairs: readonly number[]): void {
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      this.articles.push(article);
      this.signals.push(pairs[i] as number);
      this.values.push(pairs[i + 1] as number);
    }
  }

  flush(): void {
    const { articles, signals, values } = this;
    const n = articles.length;
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort(
      (a, b) =>
        (signals[a] as number) - (signals[b] as number) ||
        (values[a] as number) - (values[b] as number) ||
        (articles[a] as number) - (articles[b] as number),
    );
    let i = 0;
    for (const rows of CHUNKS) {
      const insert = this.statements.get(insertSql(rows));
      const bound = new Array<number>(rows * 3);
      for (; i + rows <= n; i += rows) {
        for (let j = 0; j < rows; j++) {
          const k = order[i + j] as number;
          bound[3 * j] = articles[k] as number;
          bound[3 * j + 1] = signals[k] as number;
          bound[3 * j + 2] = values[k] as number;
        }
        insert.run(bound);
      }
    }
    this.articles = [];
    this.signals = [];
    this.values = [];
  }
}

/** Written again (a rebuild), a row replaces. */
function insertSql(rows: number): string {
  return `INSERT OR REPLACE INTO signal_values (article, signal, value) VALUES ${Array.from({ length: rows }, () => "(?, ?, ?)").join(", ")}`;
}
