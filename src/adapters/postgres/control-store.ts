import { randomUUID } from "node:crypto";
import pg from "pg";
import type { PlanId } from "../../domain/plans.js";
import { toKey, toTenant, type KeyRow, type TenantRow } from "../control-rows.js";
import type {
  ApiKeyRecord,
  ControlStore,
  CreditState,
  KeyOwner,
  MessageAdmission,
  Rates,
  Reservation,
  Reserve,
  Tenant,
} from "../../ports/control-store.js";
import { toStamp } from "../../shared/timestamps.js";
import { inTransaction, type Queryable } from "./transaction.js";
import { PostgresWatchStore } from "./watch-store.js";
import { PostgresFollowerLease, PostgresSlotLedger } from "./slot-ledger.js";

// The control store on PostgreSQL, shared by every API replica in the scaled
// shape: every replica reports the same figures, and admission stays exact
// because each check-and-debit locks the tenant's row for its transaction.

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresControlStore implements ControlStore {
  private readonly pool: pg.Pool;
  private readonly s: string;
  /** Tables are created on first use, so the store can be built synchronously in the composition root. */
  private readonly ready: Promise<void>;

  constructor(
    private readonly url: string,
    schema = "newsindex",
  ) {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
    this.pool = new pg.Pool({ connectionString: url, max: 10 });
    this.s = schema;
    this.ready = this.migrate();
    // Failures surface on the first call that awaits `ready`.
    this.ready.catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    const s = this.s;
    await this.pool.query(`
      CREATE SCHEMA IF NOT EXISTS ${s};
      CREATE TABLE IF NOT EXISTS ${s}.tenants (
        id TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, plan TEXT NOT NULL,
        suspended BOOLEAN NOT NULL DEFAULT FALSE, created_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${s}.api_keys (
        key_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), key_hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT);
      CREATE INDEX IF NOT EXISTS api_keys_tenant ON ${s}.api_keys (tenant_id);
      CREATE TABLE IF NOT EXISTS ${s}.credit_months (
        tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), period TEXT NOT NULL,
        credits_used BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (tenant_id, period));
      CREATE TABLE IF NOT EXISTS ${s}.buckets (
        tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), kind TEXT NOT NULL,
        tokens DOUBLE PRECISION NOT NULL, updated_ms BIGINT NOT NULL, PRIMARY KEY (tenant_id, kind));
    `);
  }

  async createTenant(name: string, plan: PlanId): Promise<Tenant> {
    await this.ready;
    const tenant: Tenant = { id: `tn_${randomUUID()}`, name, plan, suspended: false, created_at: toStamp(Date.now()) };
    await this.pool.query(
      `INSERT INTO ${this.s}.tenants (id, name, plan, suspended, created_at) VALUES ($1, $2, $3, FALSE, $4)`,
      [tenant.id, tenant.name, tenant.plan, tenant.created_at],
    );
    return tenant;
  }

  async findTenant(name: string): Promise<Tenant | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<TenantRow>(`SELECT * FROM ${this.s}.tenants WHERE name = $1`, [name]);
    return rows[0] && toTenant(rows[0]);
  }

  async findTenantById(id: string): Promise<Tenant | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<TenantRow>(`SELECT * FROM ${this.s}.tenants WHERE id = $1`, [id]);
    return rows[0] && toTenant(rows[0]);
  }

  /** The watch store on this same pool and schema. */
  watchStore(): PostgresWatchStore {
    return new PostgresWatchStore(this.pool, this.s, this.ready);
  }

  /** The feed ledger on this same pool and schema. */
  slotLedger(): PostgresSlotLedger {
    return new PostgresSlotLedger(this.pool, this.s, this.ready);
  }

  /** The follower's lease: an advisory lock on a connection of its own, whatever the holder (the lock names it). */
  followerLease(): PostgresFollowerLease {
    return new PostgresFollowerLease(this.url, this.s);
  }

  async listTenants(): Promise<Tenant[]> {
    await this.ready;
    const { rows } = await this.pool.query<TenantRow>(`SELECT * FROM ${this.s}.tenants ORDER BY created_at, name`);
    return rows.map(toTenant);
  }

  async setPlan(tenantId: string, plan: PlanId): Promise<void> {
    await this.ready;
    await this.pool.query(`UPDATE ${this.s}.tenants SET plan = $1 WHERE id = $2`, [plan, tenantId]);
  }

  async setSuspended(tenantId: string, suspended: boolean): Promise<void> {
    await this.ready;
    await this.pool.query(`UPDATE ${this.s}.tenants SET suspended = $1 WHERE id = $2`, [suspended, tenantId]);
  }

  async insertKey(record: ApiKeyRecord, keyHash: string): Promise<void> {
    await this.ready;
    await this.pool.query(
      `INSERT INTO ${this.s}.api_keys (key_id, tenant_id, key_hash, prefix, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [record.key_id, record.tenant_id, keyHash, record.prefix, record.created_at, record.expires_at, record.revoked_at],
    );
  }

  async findKeyOwner(keyHash: string): Promise<KeyOwner | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<
      KeyRow & { t_name: string; t_plan: string; t_suspended: boolean; t_created_at: string }
    >(
      `SELECT k.key_id, k.tenant_id, k.prefix, k.created_at, k.expires_at, k.revoked_at,
              t.name AS t_name, t.plan AS t_plan, t.suspended AS t_suspended, t.created_at AS t_created_at
       FROM ${this.s}.api_keys k JOIN ${this.s}.tenants t ON t.id = k.tenant_id WHERE k.key_hash = $1`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      key: toKey(row),
      tenant: toTenant({
        id: row.tenant_id,
        name: row.t_name,
        plan: row.t_plan,
        suspended: row.t_suspended,
        created_at: row.t_created_at,
      }),
    };
  }

  async findKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<KeyRow>(
      `SELECT key_id, tenant_id, prefix, created_at, expires_at, revoked_at FROM ${this.s}.api_keys WHERE key_id = $1`,
      [keyId],
    );
    return rows[0] && toKey(rows[0]);
  }

  async listKeys(tenantId?: string): Promise<ApiKeyRecord[]> {
    await this.ready;
    const cols = "key_id, tenant_id, prefix, created_at, expires_at, revoked_at";
    const { rows } = tenantId
      ? await this.pool.query<KeyRow>(`SELECT ${cols} FROM ${this.s}.api_keys WHERE tenant_id = $1 ORDER BY created_at, key_id`, [
          tenantId,
        ])
      : await this.pool.query<KeyRow>(`SELECT ${cols} FROM ${this.s}.api_keys ORDER BY created_at, key_id`);
    return rows.map(toKey);
  }

  async revokeKey(keyId: string, at: string): Promise<boolean> {
    await this.ready;
    const result = await this.pool.query(
      `UPDATE ${this.s}.api_keys SET revoked_at = $1 WHERE key_id = $2 AND revoked_at IS NULL`,
      [at, keyId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async expireKey(keyId: string, at: string): Promise<boolean> {
    await this.ready;
    const result = await this.pool.query(
      `UPDATE ${this.s}.api_keys SET expires_at = $1 WHERE key_id = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $1)`,
      [at, keyId],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async reserve(request: Reserve): Promise<Reservation> {
    await this.ready;
    const { tenantId, period, nowMs, rates, credits } = request;
    return this.inTenantTransaction(tenantId, async (db): Promise<Reservation> => {
      const used = await this.monthUsed(db, tenantId, period);
      const tokens = await this.refilled(db, tenantId, "credits", rates.creditsPerMinute, nowMs);
      if (request.monthlyCap !== null && used + credits > request.monthlyCap) {
        return { admitted: false, refusedBy: "monthly", state: { credits_used: used, minute_tokens: tokens } };
      }
      if (tokens < request.minuteNeeded) {
        return { admitted: false, refusedBy: "minute", state: { credits_used: used, minute_tokens: tokens } };
      }
      await this.addToMonth(db, tenantId, period, credits);
      await this.setBucket(db, tenantId, "credits", tokens - credits, nowMs);
      return { admitted: true, state: { credits_used: used + credits, minute_tokens: tokens - credits } };
    });
  }

  async release(tenantId: string, period: string, credits: number, rates: Rates, nowMs: number): Promise<CreditState> {
    await this.ready;
    return this.inTenantTransaction(tenantId, async (db) => {
      if (credits > 0) {
        await this.addToMonth(db, tenantId, period, -credits);
        const tokens = await this.refilled(db, tenantId, "credits", rates.creditsPerMinute, nowMs);
        await this.setBucket(db, tenantId, "credits", Math.min(rates.creditsPerMinute, tokens + credits), nowMs);
      }
      return {
        credits_used: await this.monthUsed(db, tenantId, period),
        minute_tokens: await this.refilled(db, tenantId, "credits", rates.creditsPerMinute, nowMs),
      };
    });
  }

  async creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState> {
    await this.ready;
    return {
      credits_used: await this.monthUsed(this.pool, tenantId, period),
      minute_tokens: await this.refilled(this.pool, tenantId, "credits", rates.creditsPerMinute, nowMs),
    };
  }

  async takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission> {
    await this.ready;
    return this.inTenantTransaction(tenantId, async (db) => {
      const tokens = await this.refilled(db, tenantId, "messages", perMinute, nowMs);
      if (tokens < 1) return { admitted: false, remaining: 0 };
      await this.setBucket(db, tenantId, "messages", tokens - 1, nowMs);
      return { admitted: true, remaining: Math.floor(tokens - 1) };
    });
  }

  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    await this.pool.end();
  }

  /** Runs `work` in a transaction holding the tenant's row lock: one admission at a time per tenant, across replicas. */
  private inTenantTransaction<T>(tenantId: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (db) => {
      await db.query(`SELECT 1 FROM ${this.s}.tenants WHERE id = $1 FOR UPDATE`, [tenantId]);
      return work(db);
    });
  }

  private async monthUsed(db: Queryable, tenantId: string, period: string): Promise<number> {
    const { rows } = await db.query<{ credits_used: string }>(
      `SELECT credits_used FROM ${this.s}.credit_months WHERE tenant_id = $1 AND period = $2`,
      [tenantId, period],
    );
    return Number(rows[0]?.credits_used ?? 0);
  }

  private async addToMonth(db: Queryable, tenantId: string, period: string, credits: number): Promise<void> {
    await db.query(
      `INSERT INTO ${this.s}.credit_months (tenant_id, period, credits_used) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, period) DO UPDATE SET credits_used = ${this.s}.credit_months.credits_used + EXCLUDED.credits_used`,
      [tenantId, period, credits],
    );
  }

  /** A bucket refills continuously at perMinute/60 per second, up to perMinute; a new bucket is full. */
  private async refilled(db: Queryable, tenantId: string, kind: string, perMinute: number, nowMs: number): Promise<number> {
    const { rows } = await db.query<{ tokens: number; updated_ms: string }>(
      `SELECT tokens, updated_ms FROM ${this.s}.buckets WHERE tenant_id = $1 AND kind = $2`,
      [tenantId, kind],
    );
    const row = rows[0];
    if (!row) return perMinute;
    const elapsed = Math.max(0, nowMs - Number(row.updated_ms));
    return Math.min(perMinute, row.tokens + (elapsed * perMinute) / 60_000);
  }

  /** The bucket's clock never goes back: a call stamped before the last update must not earn that refill again. */
  private async setBucket(db: Queryable, tenantId: string, kind: string, tokens: number, nowMs: number): Promise<void> {
    await db.query(
      `INSERT INTO ${this.s}.buckets (tenant_id, kind, tokens, updated_ms) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, kind) DO UPDATE SET tokens = EXCLUDED.tokens,
         updated_ms = GREATEST(${this.s}.buckets.updated_ms, EXCLUDED.updated_ms)`,
      [tenantId, kind, tokens, nowMs],
    );
  }
}
