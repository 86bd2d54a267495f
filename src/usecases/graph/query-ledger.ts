import { GRAPH_QUERY_CAP } from "../../domain/pricing.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { assertSomethingRead, completeness, type Completeness } from "../query-kernel/coverage.js";

// What a graph call issued (spec 02, "Graph credits"): one credit per index
// query. Every IndexBackend call asks each monthly index in the window at most
// once, so the most any one index needed is the number of calls made; an id
// lookup that had to check its spellings against a window cutting into an
// index counts 2 (usecases/entities/entity-aliases.ts). At most 16 per call:
// the caller asks `canAfford` before optional work (evidence) and goes without
// it when the cap is reached, never refusing the call.

interface Readout {
  partitionsRead: readonly string[];
  partitionsFailed: readonly PartitionFailure[];
}

export class QueryLedger {
  private issued = 0;
  private readonly read = new Set<string>();
  private readonly failed: PartitionFailure[] = [];

  constructor(private readonly cap = GRAPH_QUERY_CAP) {}

  /** Index queries issued so far: the credits the call takes. */
  get spent(): number {
    return this.issued;
  }

  /** Counts `queries` about to be issued when the cap affords them; false (nothing counted) when it does not. */
  claim(queries: number): boolean {
    if (this.issued + queries > this.cap) return false;
    this.issued += queries;
    return true;
  }

  /** Records `queries` index queries issued and what they could and could not read. */
  record(queries: number, outcome: Readout): void {
    this.issued += queries;
    this.note(outcome);
  }

  /** What queries already counted by `claim` could and could not read. */
  note(outcome: Readout): void {
    for (const month of outcome.partitionsRead) this.read.add(month);
    this.failed.push(...outcome.partitionsFailed);
  }

  /** `partial` and `coverage` over every query; 503 when the window's own monthly indexes (to `to`) could not be read. */
  completeness(to?: string): Completeness {
    const read = [...this.read];
    assertSomethingRead({ partitionsRead: read, partitionsFailed: this.failed }, to);
    return completeness(this.failed, read);
  }
}
