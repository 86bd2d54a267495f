import { randomUUID } from "node:crypto";
import pg from "pg";
import type { PlanId } from "../../domain/plans.js";
import {
  KEY_COLUMNS,
  toKey,
  toSession,
  toTenant,
  toUsageDay,
  toUser,
  type KeyRow,
  type SessionRow,
  type TenantRow,
  type UsageRow,
  type UserRow,
} from "../control-rows.js";
import type {
  ApiKeyRecord,
  ConsoleSession,
  ConsoleUser,
  ControlStore,
  CreditState,
  HeldCredits,
  KeyOwner,
  MessageAdmission,
  Rates,
  Reservation,
  Reserve,
  Tenant,
  UsageDay,
} from "../../ports/control-store.js";
import { toStamp } from "../../shared/timestamps.js";
import { HOLDER_LOCK, PostgresCreditCounters } from "./credit-counters.js";
import { prepared } from "./transaction.js";
import { PostgresWatchStore } from "./watch-store.js";
import { PostgresFollowerLease, PostgresSlotLedger } from "./slot-ledger.js";
import { schemaLockSql } from "./schema-lock.js";

// The control store on PostgreSQL, shared by every API replica in the scaled
// shape: every replica reports the same figures, and admission stays exact
// because each check-and-debit locks the tenant's row for its transaction.

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export class PostgresControlStore implements ControlStore {
  private readonly pool: pg.Pool;
  private readonly s: string;
  /** Tables are created on first use, so the store can be built synchronously in the composition root. */
  private readonly ready: Promise<void>;
  private closing: Promise<void> | undefined;
  private readonly url: string;
  private readonly holder = `replica-${randomUUID()}`;
  private readonly credits: PostgresCreditCounters;
  /**
   * A connection of its own holding a session advisory lock on `holder` for as
   * long as this process lives: PostgreSQL drops it when the process dies, which
   * is how any replica tells a live hold from an abandoned one. Taken before the
   * first hold is written.
   */
  private liveness: Promise<pg.Client> | undefined;

  constructor(url: string, schema = "newsindex") {
    if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid PostgreSQL schema name: ${schema}`);
    // Pipelined: a transaction sends BEGIN with its first statement and COMMIT with its last (transaction.ts).
    this.pool = new pg.Pool({ connectionString: url, max: 10, pipeline: true });
    // An idle connection the server closed (a restart, a failover) is dropped by the pool and replaced on the next
    // call; unlistened, its error event would end the process instead.
    this.pool.on("error", () => undefined);
    // The same for a connection checked out between two queries (a transaction awaiting other work): its next query
    // fails instead (503 to the caller) and the pool discards it on release.
    this.pool.on("connect", (client) => client.on("error", () => undefined));
    this.url = url;
    this.s = schema;
    this.credits = new PostgresCreditCounters(this.pool, schema, this.holder);
    this.ready = this.migrate();
    // Failures surface on the first call that awaits `ready`.
    this.ready.catch(() => undefined);
  }

  private async migrate(): Promise<void> {
    const s = this.s;
    // One query string runs as one transaction: replicas starting together would race on CREATE ... IF NOT EXISTS
    // (a unique violation in the catalog), so each takes the schema's lock first and one migrates at a time.
    await this.pool.query(`
      ${schemaLockSql(s)};
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
      CREATE TABLE IF NOT EXISTS ${s}.credit_holds (
        id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), period TEXT NOT NULL,
        credits BIGINT NOT NULL, holder TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS credit_holds_holder ON ${s}.credit_holds (holder);
      ALTER TABLE ${s}.api_keys ADD COLUMN IF NOT EXISTS last_used_at TEXT;
      CREATE TABLE IF NOT EXISTS ${s}.usage_days (
        tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), day TEXT NOT NULL, operation TEXT NOT NULL,
        calls BIGINT NOT NULL DEFAULT 0, credits BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (tenant_id, day, operation));
      CREATE TABLE IF NOT EXISTS ${s}.console_users (
        user_id TEXT PRIMARY KEY, tenant_id TEXT NOT NULL REFERENCES ${s}.tenants(id), email TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${s}.console_sessions (
        session_hash TEXT PRIMARY KEY, role TEXT NOT NULL, tenant_id TEXT REFERENCES ${s}.tenants(id),
        user_id TEXT REFERENCES ${s}.console_users(user_id), csrf_token TEXT NOT NULL,
        created_at TEXT NOT NULL, expires_at TEXT NOT NULL);
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
      `INSERT INTO ${this.s}.api_keys (key_id, tenant_id, key_hash, prefix, created_at, expires_at, revoked_at, last_used_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        record.key_id,
        record.tenant_id,
        keyHash,
        record.prefix,
        record.created_at,
        record.expires_at,
        record.revoked_at,
        record.last_used_at,
      ],
    );
  }

  async findKeyOwner(keyHash: string): Promise<KeyOwner | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<
      KeyRow & { t_name: string; t_plan: string; t_suspended: boolean; t_created_at: string }
    >(
      prepared({
        text: `SELECT k.key_id, k.tenant_id, k.prefix, k.created_at, k.expires_at, k.revoked_at, k.last_used_at,
              t.name AS t_name, t.plan AS t_plan, t.suspended AS t_suspended, t.created_at AS t_created_at
         FROM ${this.s}.api_keys k JOIN ${this.s}.tenants t ON t.id = k.tenant_id WHERE k.key_hash = $1`,
        values: [keyHash],
      }),
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
    const { rows } = await this.pool.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM ${this.s}.api_keys WHERE key_id = $1`, [keyId]);
    return rows[0] && toKey(rows[0]);
  }

  async listKeys(tenantId?: string): Promise<ApiKeyRecord[]> {
    await this.ready;
    const cols = KEY_COLUMNS;
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

  async touchKey(keyId: string, at: string): Promise<void> {
    await this.ready;
    await this.pool.query(
      `UPDATE ${this.s}.api_keys SET last_used_at = $1 WHERE key_id = $2 AND (last_used_at IS NULL OR last_used_at < $1)`,
      [at, keyId],
    );
  }

  async reserve(request: Reserve): Promise<Reservation> {
    await this.ready;
    if (request.holdId !== undefined) await this.alive();
    return this.credits.reserve(request);
  }

  async release(
    tenantId: string,
    period: string,
    credits: number,
    rates: Rates,
    nowMs: number,
    operation?: string,
  ): Promise<CreditState> {
    await this.ready;
    return this.credits.release(tenantId, period, credits, rates, nowMs, operation);
  }

  async settle(hold: HeldCredits, charged: number, rates: Rates, nowMs: number): Promise<CreditState> {
    await this.ready;
    return this.credits.settle(hold, charged, rates, nowMs);
  }

  async releaseAbandonedHolds(): Promise<number> {
    await this.ready;
    const { rows: holders } = await this.pool.query<{ holder: string }>(
      `SELECT DISTINCT holder FROM ${this.s}.credit_holds WHERE holder <> $1`,
      [this.holder],
    );
    let released = 0;
    for (const { holder } of holders) released += await this.credits.releaseHoldsOf(holder);
    return released;
  }

  async creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState> {
    await this.ready;
    return this.credits.creditState(tenantId, period, rates, nowMs);
  }

  async countFreeCall(tenantId: string, operation: string, nowMs: number): Promise<void> {
    await this.ready;
    await this.credits.countFreeCall(tenantId, operation, nowMs);
  }

  async usage(tenantId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    await this.ready;
    const { rows } = await this.pool.query<UsageRow>(
      `SELECT day, operation, calls, credits FROM ${this.s}.usage_days
       WHERE tenant_id = $1 AND day >= $2 AND day <= $3 ORDER BY day, operation`,
      [tenantId, fromDay, toDay],
    );
    return rows.map(toUsageDay);
  }

  async createUser(user: ConsoleUser, passwordHash: string): Promise<void> {
    await this.ready;
    await this.pool.query(
      `INSERT INTO ${this.s}.console_users (user_id, tenant_id, email, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [user.user_id, user.tenant_id, user.email.toLowerCase(), passwordHash, user.created_at],
    );
  }

  async findUser(email: string): Promise<{ user: ConsoleUser; password_hash: string } | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<UserRow & { password_hash: string }>(
      `SELECT * FROM ${this.s}.console_users WHERE email = $1`,
      [email.toLowerCase()],
    );
    const row = rows[0];
    return row && { user: toUser(row), password_hash: row.password_hash };
  }

  async listUsers(tenantId?: string): Promise<ConsoleUser[]> {
    await this.ready;
    const cols = "user_id, tenant_id, email, created_at";
    const { rows } = tenantId
      ? await this.pool.query<UserRow>(
          `SELECT ${cols} FROM ${this.s}.console_users WHERE tenant_id = $1 ORDER BY created_at, email`,
          [tenantId],
        )
      : await this.pool.query<UserRow>(`SELECT ${cols} FROM ${this.s}.console_users ORDER BY created_at, email`);
    return rows.map(toUser);
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    await this.ready;
    const result = await this.pool.query(`UPDATE ${this.s}.console_users SET password_hash = $1 WHERE user_id = $2`, [
      passwordHash,
      userId,
    ]);
    return (result.rowCount ?? 0) > 0;
  }

  async createSession(session: ConsoleSession): Promise<void> {
    await this.ready;
    await this.pool.query(
      `INSERT INTO ${this.s}.console_sessions (session_hash, role, tenant_id, user_id, csrf_token, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        session.session_hash,
        session.role,
        session.tenant_id,
        session.user_id,
        session.csrf_token,
        session.created_at,
        session.expires_at,
      ],
    );
  }

  async findSession(sessionHash: string): Promise<ConsoleSession | undefined> {
    await this.ready;
    const { rows } = await this.pool.query<SessionRow>(`SELECT * FROM ${this.s}.console_sessions WHERE session_hash = $1`, [
      sessionHash,
    ]);
    return rows[0] && toSession(rows[0]);
  }

  async deleteSession(sessionHash: string): Promise<void> {
    await this.ready;
    await this.pool.query(`DELETE FROM ${this.s}.console_sessions WHERE session_hash = $1`, [sessionHash]);
  }

  async deleteExpiredSessions(at: string): Promise<number> {
    await this.ready;
    const result = await this.pool.query(`DELETE FROM ${this.s}.console_sessions WHERE expires_at <= $1`, [at]);
    return result.rowCount ?? 0;
  }

  async takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission> {
    await this.ready;
    return this.credits.takeMessage(tenantId, perMinute, nowMs);
  }

  /** Closes once: a second call (a shutdown after a failed one) waits for the first, never ends a closed client again. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private async shutdown(): Promise<void> {
    await this.ready.catch(() => undefined);
    const liveness = await this.liveness?.catch(() => undefined);
    await liveness?.end();
    await this.pool.end();
  }

  /** This process's liveness lock, taken once. */
  private alive(): Promise<pg.Client> {
    const liveness = (this.liveness ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      // A dropped connection loses the lock; settling a hold released meanwhile still charges it once. The lock is
      // taken again by the next hold (after a server restart), and a failed attempt is not kept.
      const forget = (): void => {
        if (this.liveness === liveness) this.liveness = undefined;
      };
      client.on("error", forget);
      client.on("end", forget);
      try {
        await client.connect();
        await client.query(`SELECT pg_advisory_lock(${HOLDER_LOCK})`, [this.holder]);
      } catch (error) {
        forget();
        await client.end().catch(() => undefined);
        throw error;
      }
      return client;
    })());
    return liveness;
  }
}
