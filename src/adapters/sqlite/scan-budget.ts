// Where a query's time budget is enforced inside one monthly index: a scan
// that reads the index row by row (facet counts, story matches, story sizes)
// asks after every row and stops once the deadline has passed, answering with
// what it read. Single statements that do not hand rows back one by one (an
// FTS5 top-n, a count) run to their end: each is bounded by one index.

/** Rows read between two looks at the clock. */
const ROWS_PER_CHECK = 1024;

export class ScanBudget {
  private rows = 0;
  /** The scan stopped early: what it answers covers only part of the index. */
  timedOut = false;

  /** `deadline`: ms since the epoch (the same on every thread); none: no limit. */
  constructor(readonly deadline?: number) {}

  /** True once the deadline has passed; then the scan stops. */
  spent(): boolean {
    if (this.deadline === undefined || ++this.rows % ROWS_PER_CHECK !== 0) return this.timedOut;
    if (Date.now() > this.deadline) this.timedOut = true;
    return this.timedOut;
  }
}
