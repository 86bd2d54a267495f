// What every answer of the article index says about how much of the index it
// read (spec section 2, `partial` and `coverage`), in terms any engine gives:
// the indexes that answered and those that did not. An index is one calendar
// month of articles (a SQLite file, or an OpenSearch index behind the read
// alias), named `YYYYMM`; an engine whose index answered only in part (a shard
// failed) reports it failed, with the reason.

export interface PartitionFailure {
  /** The index, `YYYYMM`. */
  partition: string;
  /**
   * `unreadable`: missing, locked, damaged or down; `timed_out`: not read, or read in part, within the query's
   * budget; `field_unavailable`: built without a derived field the query needs (until `newsindex reindex`).
   */
  kind: "unreadable" | "timed_out" | "field_unavailable";
  reason: string;
}

/** The one coverage value of an answer: domain/coverage.ts rules turn it into `partial` and `coverage`. */
export interface IndexCoverage {
  /** Indexes (`YYYYMM`) that answered in full. */
  partitionsRead: string[];
  /** Indexes that could not answer, or answered in part: the answer is partial. */
  partitionsFailed: PartitionFailure[];
}
