import { addEntityKeys } from "./entity-keys.js";
import type { StatementCache } from "./statement-cache.js";

// Gives each (field, folded value) its term id while a partition is written,
// creating terms on first sight, and keeps each term's article count. Ids are
// cached in memory so a bulk ingest does not look every value up in SQL; count
// changes are summed per transaction and written once per term, and a term
// first seen in the transaction is inserted once, at the end, with its count.

/** Field codes (domain/filter-fields.ts) fit in 5 bits: a term id is seq * 32 + code. */
export const MAX_FIELD_CODE = 31;

/** Past this many cached terms the cache starts over (it is only a shortcut). */
const CACHE_LIMIT = 500_000;

interface NewTerm {
  code: number;
  key: string;
  spelling: string;
}

export class TermWriter {
  /** Per field code: folded value to term id. */
  private readonly cache = Array.from({ length: MAX_FIELD_CODE + 1 }, () => new Map<string, number>());
  private cached = 0;
  private readonly deltas = new Map<number, number>();
  private readonly fresh = new Map<number, NewTerm>();
  /** Next sequence number per field code, read under the write lock on first use in a transaction. */
  private readonly nextSeq = new Map<number, number>();

  constructor(private readonly statements: StatementCache) {}

  /** Starts a write transaction's worth of terms. Call inside the transaction. */
  begin(): void {
    if (this.cached > CACHE_LIMIT) this.reset();
    this.deltas.clear();
    this.fresh.clear();
    this.nextSeq.clear();
  }

  /** The term id of a value one more article carries. `spelling` is "" when it is the key itself. */
  idOf(code: number, key: string, spelling: string): number {
    const cache = this.cache[code] as Map<string, number>;
    let id = cache.get(key);
    if (id === undefined) {
      id = this.statements.get("SELECT id FROM terms WHERE field = ? AND key = ?").pluck().get(code, key) as number | undefined;
      if (id === undefined) {
        id = this.allocate(code);
        this.fresh.set(id, { code, key, spelling });
      }
      // A copy: the key may be a slice of the whole raw GKG line, which the cache would otherwise keep alive.
      cache.set(Buffer.from(key, "utf8").toString("utf8"), id);
      this.cached++;
    }
    this.deltas.set(id, (this.deltas.get(id) ?? 0) + 1);
    return id;
  }

  /** One article fewer carries the term (a relabelled story). */
  release(id: number): void {
    this.deltas.set(id, (this.deltas.get(id) ?? 0) - 1);
  }

  /** Ids are seq * 32 + code, with a sequence per field: read under the write lock, so no other writer takes it. */
  private allocate(code: number): number {
    let seq = this.nextSeq.get(code);
    if (seq === undefined) {
      const max = this.statements.get("SELECT max(id) FROM terms WHERE field = ?").pluck().get(code) as number | null;
      seq = max === null ? 0 : Math.floor(max / 32) + 1;
    }
    this.nextSeq.set(code, seq + 1);
    return seq * 32 + code;
  }

  /** Writes new terms and article counts. Call inside the transaction, last. */
  commit(): void {
    const insert = this.statements.get("INSERT INTO terms (id, field, key, value, docs) VALUES (?, ?, ?, ?, ?)");
    const bump = this.statements.get("UPDATE terms SET docs = docs + ? WHERE id = ?");
    for (const [id, delta] of this.deltas) {
      const term = this.fresh.get(id);
      if (term) {
        insert.run(id, term.code, term.key, term.spelling === "" ? null : term.spelling, delta);
        addEntityKeys(this.statements, term.code, term.key, id);
      } else bump.run(delta, id);
    }
    this.deltas.clear();
    this.fresh.clear();
  }

  /** After a rolled-back transaction: cached ids of terms that were never committed must go. */
  reset(): void {
    for (const cache of this.cache) cache.clear();
    this.cached = 0;
    this.deltas.clear();
    this.fresh.clear();
  }
}
