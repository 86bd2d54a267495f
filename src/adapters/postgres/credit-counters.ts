import type pg from "pg";
import { admitCredits, admitMessage } from "../../domain/billing/admission.js";
import { refilledTokens, refundedTokens, type StoredBucket } from "../../domain/billing/token-bucket.js";
import type { CreditState, HeldCredits, MessageAdmission, Rates, Reservation, Reserve } from "../../ports/control-store.js";
import { toStamp } from "../../shared/timestamps.js";
import { inTransaction, prepared, readThenWrite, type Statement } from "./transaction.js";

// The credit counters of the control store on PostgreSQL: the month's usage,
// the minute and message buckets, holds and the per-day usage counters. Every
// priced call reserves and settles here, so each is one transaction of two
// statements (transaction.ts, readThenWrite): a read of the counters that
// takes the tenant's row lock, then one statement writing every counter the
// decision changed. Calls of one tenant queue on that lock, so how long it is
// held bounds the tenant's calls per second: two round trips, not one per
// counter.

/** The advisory-lock key a holder keeps while its process lives (64-bit hash of its name). */
export const HOLDER_LOCK = "hashtextextended($1, 0)";

interface Counters {
  creditsUsed: number;
  bucket: StoredBucket | undefined;
}

export class PostgresCreditCounters {
  constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    /** The process's name on the holds it writes (its liveness lock bears the same name). */
    private readonly holder: string,
  ) {}

  /**
   * A reservation with a hold commits without waiting for the disk: the tenant's lock is released a flush sooner,
   * and a reservation a server crash loses is made good by the settle, which is durable and charges a hold it
   * cannot find afresh (as one released meanwhile). A reservation that was settled was made durable by that
   * settle's flush. Without a hold the reservation is the charge itself, and waits for the disk.
   */
  async reserve(request: Reserve): Promise<Reservation> {
    const { tenantId, period, nowMs, rates, credits, holdId } = request;
    const s = this.s;
    return readThenWrite<Reservation>(
      this.pool,
      this.lockTenant(tenantId),
      this.counters(tenantId, period, "credits"),
      (rows) => {
        const counters = countersOf(rows);
        const current = {
          credits_used: counters.creditsUsed,
          minute_tokens: refilledTokens(counters.bucket, rates.creditsPerMinute, nowMs),
        };
        const admission = admitCredits(current, request);
        if (!admission.admitted) return { answer: () => admission };
        const hold =
          holdId === undefined
            ? ""
            : `, hold AS (INSERT INTO ${s}.credit_holds (id, tenant_id, period, credits, holder) VALUES ($6, $1, $2, $3, $7))`;
        return {
          write: {
            text: `WITH month AS (${addToMonth(s, "$1", "$2", "$3")})${hold}
              ${setBucket(s, "$1", "'credits'", "$4", "$5")}`,
            values: [
              tenantId,
              period,
              credits,
              admission.state.minute_tokens,
              nowMs,
              ...(holdId === undefined ? [] : [holdId, this.holder]),
            ],
          },
          answer: () => admission,
        };
      },
      { durable: holdId === undefined },
    );
  }

  /**
   * Settles a hold: deleted, the day's usage counted, the month and the minute bucket given back what the call did
   * not take. A hold released meanwhile as abandoned (its month given back already) is charged afresh instead: which
   * of the two applies is known only as the hold is deleted, so both outcomes are computed and the statement picks.
   */
  async settle(hold: HeldCredits, charged: number, rates: Rates, nowMs: number): Promise<CreditState> {
    const { tenantId, period } = hold;
    const s = this.s;
    return readThenWrite(this.pool, this.lockTenant(tenantId), this.counters(tenantId, period, "credits"), (rows) => {
      const tokens = refilledTokens(countersOf(rows).bucket, rates.creditsPerMinute, nowMs);
      // What goes back to the counters: the unused part of a held reservation, or the charge taken afresh.
      const unused = { held: hold.credits - charged, afresh: -charged };
      const after = (back: number): number => refundedTokens(tokens, back, rates.creditsPerMinute);
      const picked = (whenHeld: string, otherwise: string): string =>
        `CASE WHEN EXISTS (SELECT 1 FROM held) THEN ${whenHeld} ELSE ${otherwise} END`;
      return {
        write: {
          // $1 hold, $2 tenant, $3 day, $4 operation, $5 charged, $6 now, $7 period, $8/$9 month, $10/$11 bucket.
          text: `WITH held AS (DELETE FROM ${s}.credit_holds WHERE id = $1 RETURNING id),
              usage AS (${countUsage(s, "$2", "$3", "$4", "1", "$5")}),
              month AS (${addToMonth(s, "$2", "$7", picked("$8::bigint", "$9::bigint"))} RETURNING credits_used),
              bucket AS (${setBucket(s, "$2", "'credits'", picked("$10::float8", "$11::float8"), "$6")})
            SELECT EXISTS (SELECT 1 FROM held) AS held, (SELECT credits_used FROM month) AS credits_used`,
          values: [
            hold.holdId,
            tenantId,
            usageDay(nowMs),
            hold.operation,
            charged,
            nowMs,
            period,
            -unused.held,
            -unused.afresh,
            after(unused.held),
            after(unused.afresh),
          ],
        },
        answer: (written) => {
          const row = written[0] as { held: boolean; credits_used: string } | undefined;
          if (row === undefined) throw new Error("settle: the counters' update answered no row");
          return { credits_used: Number(row.credits_used), minute_tokens: after(row.held ? unused.held : unused.afresh) };
        },
      };
    });
  }

  /** Gives `credits` back to the month and the minute bucket, and with `operation` to the day's usage counter. */
  async release(
    tenantId: string,
    period: string,
    credits: number,
    rates: Rates,
    nowMs: number,
    operation?: string,
  ): Promise<CreditState> {
    const s = this.s;
    return readThenWrite(this.pool, this.lockTenant(tenantId), this.counters(tenantId, period, "credits"), (rows) => {
      const counters = countersOf(rows);
      const tokens = refundedTokens(
        refilledTokens(counters.bucket, rates.creditsPerMinute, nowMs),
        credits,
        rates.creditsPerMinute,
      );
      // $1 tenant, $2 period, $3 credits given back, $4 tokens after, $5 now; with an operation, $6 day, $7 operation.
      const usage = operation === undefined ? "" : `usage AS (${countUsage(s, "$1", "$6", "$7", "0", "-$3::bigint")}),`;
      return {
        write: {
          text: `WITH ${usage} month AS (${addToMonth(s, "$1", "$2", "-$3::bigint")})
            ${setBucket(s, "$1", "'credits'", "$4", "$5")}`,
          values: [tenantId, period, credits, tokens, nowMs, ...(operation === undefined ? [] : [usageDay(nowMs), operation])],
        },
        answer: () => ({ credits_used: counters.creditsUsed - credits, minute_tokens: tokens }),
      };
    });
  }

  /** Gives back every hold `holder` left when its process ended; none while it lives (its session lock is held). */
  async releaseHoldsOf(holder: string): Promise<number> {
    const s = this.s;
    return inTransaction(this.pool, async (db) => {
      // Taken only when no live process holds its session lock; kept to commit, so two sweeps never both release.
      const { rows } = await db.query<{ ended: boolean }>(`SELECT pg_try_advisory_xact_lock(${HOLDER_LOCK}) AS ended`, [holder]);
      if (rows[0]?.ended !== true) return 0;
      const { rows: holds } = await db.query<{ tenant_id: string; period: string; credits: string }>(
        `DELETE FROM ${s}.credit_holds WHERE holder = $1 RETURNING tenant_id, period, credits`,
        [holder],
      );
      // The month only: the minute bucket has refilled by the time a restart reads it.
      for (const hold of holds)
        await db.query(addToMonth(s, "$1", "$2", "$3"), [hold.tenant_id, hold.period, -Number(hold.credits)]);
      return holds.length;
    });
  }

  async creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState> {
    const read = this.counters(tenantId, period, "credits");
    const counters = countersOf((await this.pool.query(prepared(read))).rows);
    return {
      credits_used: counters.creditsUsed,
      minute_tokens: refilledTokens(counters.bucket, rates.creditsPerMinute, nowMs),
    };
  }

  async countFreeCall(tenantId: string, operation: string, nowMs: number): Promise<void> {
    await this.pool.query(countUsage(this.s, "$1", "$2", "$3", "1", "0"), [tenantId, usageDay(nowMs), operation]);
  }

  async takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission> {
    return readThenWrite(this.pool, this.lockTenant(tenantId), this.counters(tenantId, "", "messages"), (rows) => {
      const { tokens, ...admission } = admitMessage(refilledTokens(countersOf(rows).bucket, perMinute, nowMs));
      return {
        ...(admission.admitted
          ? { write: { text: setBucket(this.s, "$1", "'messages'", "$2", "$3"), values: [tenantId, tokens, nowMs] } }
          : {}),
        answer: () => admission,
      };
    });
  }

  /** The tenant's row, locked to the transaction's end: admissions of one tenant run one at a time, across replicas. */
  private lockTenant(tenantId: string): Statement {
    return { text: `SELECT 1 FROM ${this.s}.tenants WHERE id = $1 FOR UPDATE`, values: [tenantId] };
  }

  /** The month's usage and a bucket. */
  private counters(tenantId: string, period: string, kind: string): Statement {
    const s = this.s;
    return {
      text: `SELECT (SELECT credits_used FROM ${s}.credit_months WHERE tenant_id = $1 AND period = $2) AS credits_used,
          b.tokens, b.updated_ms
        FROM (SELECT 1) AS one LEFT JOIN ${s}.buckets b ON b.tenant_id = $1 AND b.kind = $3`,
      values: [tenantId, period, kind],
    };
  }
}

function countersOf(rows: pg.QueryResultRow[]): Counters {
  const row = rows[0] as { credits_used: string | null; tokens: number | null; updated_ms: string | null } | undefined;
  return {
    creditsUsed: Number(row?.credits_used ?? 0),
    bucket:
      row?.tokens === null || row?.tokens === undefined ? undefined : { tokens: row.tokens, updatedMs: Number(row.updated_ms) },
  };
}

/** The UTC day of `nowMs` as the usage counters key it (`YYYYMMDD`). */
function usageDay(nowMs: number): string {
  return toStamp(nowMs).slice(0, 8);
}

/** Adds to the month's usage (a negative amount gives back); SQL expressions for its values. */
function addToMonth(s: string, tenant: string, period: string, credits: string): string {
  return `INSERT INTO ${s}.credit_months (tenant_id, period, credits_used) VALUES (${tenant}, ${period}, ${credits})
    ON CONFLICT (tenant_id, period) DO UPDATE SET credits_used = ${s}.credit_months.credits_used + EXCLUDED.credits_used`;
}

/** The bucket's clock never goes back: a call stamped before the last update must not earn that refill again. */
function setBucket(s: string, tenant: string, kind: string, tokens: string, nowMs: string): string {
  return `INSERT INTO ${s}.buckets (tenant_id, kind, tokens, updated_ms) VALUES (${tenant}, ${kind}, ${tokens}, ${nowMs})
    ON CONFLICT (tenant_id, kind) DO UPDATE SET tokens = EXCLUDED.tokens,
      updated_ms = GREATEST(${s}.buckets.updated_ms, EXCLUDED.updated_ms)`;
}

/** Adds calls and credits to the usage counter of a tenant's day and operation; SQL expressions for its values. */
function countUsage(s: string, tenant: string, day: string, operation: string, calls: string, credits: string): string {
  return `INSERT INTO ${s}.usage_days (tenant_id, day, operation, calls, credits)
    VALUES (${tenant}, ${day}, ${operation}, ${calls}, ${credits})
    ON CONFLICT (tenant_id, day, operation) DO UPDATE SET calls = ${s}.usage_days.calls + EXCLUDED.calls,
      credits = ${s}.usage_days.credits + EXCLUDED.credits`;
}
