import { insertInOrder } from "./multi-row-insert.js";
import type { StatementCache } from "./statement-cache.js";

// Collects a write transaction's signal intensities and inserts them sorted by
// (signal, value), many rows per statement. The `(signal, value)` index is the
// costly part of a signal row: inserted in article order, each row lands on a
// random page of it; sorted, consecutive rows share pages, as postings do
// (postings-buffer.ts). The table's own key (article, signal) only grows at its
// end either way.

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
    // Written again (a rebuild), a row replaces.
    insertInOrder(
      this.statements,
      "INSERT OR REPLACE",
      "signal_values (article, signal, value)",
      [articles, signals, values],
      order,
    );
    this.articles = [];
    this.signals = [];
    this.values = [];
  }
}
