import type { FieldDocValues } from "./facet-doc-values.js";
import { decodeTerms } from "./term-blob.js";

// Counts facet values from doc values: each matching article's `terms` blob
// (uint32 term ids, seq * 32 + field code). One pass over the match set counts
// every requested field at once, into a dense array per field indexed by seq;
// or each field's doc values held in memory (facet-doc-values.ts) are counted
// for the matches' rowids.

export interface CountedFacet {
  /** The `depth` most frequent term ids, largest count first (ties: older term first). */
  top: Array<{ id: number; count: number }>;
  otherCount: number;
  truncated: boolean;
}

export class FacetCounter {
  private readonly counts: Array<Uint32Array | undefined> = [];

  /** `sizes`: per field code to count, one more than its largest seq in this index. */
  constructor(sizes: ReadonlyMap<number, number>) {
    for (const [code, size] of sizes) this.counts[code] = new Uint32Array(size);
  }

  add(blob: Uint8Array): void {
    const ids = decodeTerms(blob);
    const counts = this.counts;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const field = counts[id & 31];
      if (field !== undefined) field[id >>> 5] = (field[id >>> 5] as number) + 1;
    }
  }

  /** Counts field `code`'s values of the articles `rowids`, each held in `field`. */
  addHeld(code: number, field: FieldDocValues, rowids: ArrayLike<number>): void {
    const counts = this.counts[code];
    if (counts === undefined) return;
    const { starts, values } = field;
    for (let i = 0; i < rowids.length; i++) {
      const rowid = rowids[i] as number;
      const end = starts[rowid + 1] as number;
      for (let j = starts[rowid] as number; j < end; j++) {
        const seq = values[j] as number;
        counts[seq] = (counts[seq] as number) + 1;
      }
    }
  }

  result(code: number, depth: number): CountedFacet {
    const field = this.counts[code];
    if (field === undefined) return { top: [], otherCount: 0, truncated: false };
    // Keep the `depth` largest with a small sorted buffer: most values never enter it.
    const top: Array<{ id: number; count: number }> = [];
    let total = 0;
    let distinct = 0;
    for (let seq = 0; seq < field.length; seq++) {
      const count = field[seq] as number;
      if (count === 0) continue;
      total += count;
      distinct++;
      if (top.length === depth && count <= (top[depth - 1] as { count: number }).count) continue;
      let at = top.length;
      while (at > 0 && (top[at - 1] as { count: number }).count < count) at--;
      top.splice(at, 0, { id: seq * 32 + code, count });
      if (top.length > depth) top.pop();
    }
    const shown = top.reduce((sum, t) => sum + t.count, 0);
    return { top, otherCount: total - shown, truncated: distinct > depth };
  }
}
