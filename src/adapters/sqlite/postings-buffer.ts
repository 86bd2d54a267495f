import { insertInOrder } from "./multi-row-insert.js";
import type { StatementCache } from "./statement-cache.js";

// Collects a write transaction's postings and inserts them sorted by
// (term, article), many rows per statement: consecutive inserts then land on
// the same B-tree pages, and the per-statement cost is paid once per chunk.

/** Postings per transaction before the buffer inserts early (keeps the sort key exact). */
const ARRIVALS = 2 ** 21;

export class PostingsBuffer {
  private terms: number[] = [];
  private articles: number[] = [];

  constructor(private readonly statements: StatementCache) {}

  push(termIds: Uint32Array, article: number): void {
    if (this.terms.length + termIds.length >= ARRIVALS) this.flush();
    for (const term of termIds) {
      this.terms.push(term);
      this.articles.push(article);
    }
  }

  flush(): void {
    const n = this.terms.length;
    const terms = this.terms;
    const articles = this.articles;
    // Postings arrive in article order, so (term, arrival) order is (term, article) order. Packing
    // both in one float sorts natively: term ids stay below 2^32 and a transaction below 2^21 postings.
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = (terms[i] as number) * ARRIVALS + i;
    keys.sort();
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = (keys[i] as number) % ARRIVALS;
    insertInOrder(this.statements, "INSERT OR IGNORE", "postings (term, article)", [terms, articles], order);
    this.terms = [];
    this.articles = [];
  }
}
