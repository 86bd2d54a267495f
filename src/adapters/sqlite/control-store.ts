import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { openDatabase } from "./open-database.js";
import { StatementCache } from "./statement-cache.js";
import { SqliteWatchStore } from "./watch-store.js";
import { admitCredits, admitMessage } from "../../domain/billing/admission.js";
import { refilledTokens, refundedTokens } from "../../domain/billing/token-bucket.js";
import { SqliteFollowerLease, SqliteSlotLedger } from "./slot-ledger.js";
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

// control.db: tenants, keys (hash only), durable credit and usage counters, console users and sessions.

const SCHEMA = `
CREATE TABLE IF NOT EXISTS tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  plan TEXT NOT NULL,
  suspended INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_tenant ON api_keys(tenant_id);
CREATE TABLE IF NOT EXISTS credit_months (
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  period TEXT NOT NULL,
  credits_used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, period)
);
-- Continuously refilling buckets: 'credits' (per-minute credits) and 'messages'
-- (free calls and refused requests). Tokens may go negative after a call larger
-- than a minute's credits; the refill pays that back.
CREATE TABLE IF NOT EXISTS buckets (
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  kind TEXT NOT NULL,
  tokens REAL NOT NULL,
  updated_ms INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, kind)
);
-- Reservations of calls still running, each owned by the process that made it
-- (holder: '<pid>/<instance>'); one left by a process that ended is released.
CREATE TABLE IF NOT EXISTS credit_holds (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  period TEXT NOT NULL,
  credits INTEGER NOT NULL,
  holder TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS credit_holds_holder ON credit_holds(holder);
-- Calls and credits per tenant, UTC day and operation: the console's usage chart.
CREATE TABLE IF NOT EXISTS usage_days (
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  day TEXT NOT NULL,
  operation TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,
  credits INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, day, operation)
);
CREATE TABLE IF NOT EXISTS console_users (
  user_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL REFERENCES tenants(id),
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS console_sessions (
  session_hash TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  tenant_id TEXT REFERENCES tenants(id),
  user_id TEXT REFERENCES console_users(user_id),
  csrf_token TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
`;

/** Columns added after a table's first version: added to a control.db that lacks them. */
const ADDED_COLUMNS = [{ table: "api_keys", column: "last_used_at", type: "TEXT" }];

/** The store instances open in this process: a holder of this pid not among them has ended (a restart as pid 1). */
const OPEN_HOLDERS = new Set<string>();

/** control.db is a local file, so a holder is a process on this machine: alive while its pid is. */
function holderAlive(holder: string): boolean {
  const pid = Number(holder.split("/")[0]);
  if (pid === process.pid) return OPEN_HOLDERS.has(holder);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export class SqliteControlStore implements ControlStore {
  private readonly db: Database.Database;
  private readonly statements: StatementCache;
  private readonly holder = `${process.pid}/${randomUUID()}`;

  constructor(path: string) {
    this.db = openDatabase(path);
    this.db.pragma("foreign_keys = ON");
    this.db.exec(SCHEMA);
    for (const { table, column, type } of ADDED_COLUMNS) {
      const columns = this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (!columns.some((c) => c.name === column)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${type}`);
    }
    this.statements = new StatementCache(this.db);
    OPEN_HOLDERS.add(this.holder);
  }

  async createTenant(name: string, plan: PlanId): Promise<Tenant> {
    const tenant: Tenant = { id: `tn_${randomUUID()}`, name, plan, suspended: false, created_at: toStamp(Date.now()) };
    this.statements
      .get("INSERT INTO tenants (id, name, plan, suspended, created_at) VALUES (?, ?, ?, 0, ?)")
      .run(tenant.id, tenant.name, tenant.plan, tenant.created_at);
    return tenant;
  }

  async findTenant(name: string): Promise<Tenant | undefined> {
    const row = this.statements.get("SELECT * FROM tenants WHERE name = ?").get(name) as TenantRow | undefined;
    return row && toTenant(row);
  }

  async findTenantById(id: string): Promise<Tenant | undefined> {
    const row = this.statements.get("SELECT * FROM tenants WHERE id = ?").get(id) as TenantRow | undefined;
    return row && toTenant(row);
  }

  /** The watch store on this same connection (control.db). */
  watchStore(): SqliteWatchStore {
    return new SqliteWatchStore(this.db);
  }

  /** The feed ledger on this same connection (control.db). */
  slotLedger(): SqliteSlotLedger {
    return new SqliteSlotLedger(this.db);
  }

  /** The follower's lease in control.db, renewed at each slot; `leaseMs` long. */
  followerLease(leaseMs: number): SqliteFollowerLease {
    return new SqliteFollowerLease(this.db, leaseMs);
  }

  async listTenants(): Promise<Tenant[]> {
    return (this.statements.get("SELECT * FROM tenants ORDER BY created_at, name").all() as TenantRow[]).map(toTenant);
  }

  async insertKey(record: ApiKeyRecord, keyHash: string): Promise<void> {
    this.statements
      .get(
        "INSERT INTO api_keys (key_id, tenant_id, key_hash, prefix, created_at, expires_at, revoked_at, last_used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        record.key_id,
        record.tenant_id,
        keyHash,
        record.prefix,
        record.created_at,
        record.expires_at,
        record.revoked_at,
        record.last_used_at,
      );
  }

  async findKeyOwner(keyHash: string): Promise<KeyOwner | undefined> {
    const row = this.statements
      .get(
        `SELECT k.key_id, k.tenant_id, k.prefix, k.created_at, k.expires_at, k.revoked_at, k.last_used_at,
                t.id AS t_id, t.name AS t_name, t.plan AS t_plan, t.suspended AS t_suspended, t.created_at AS t_created_at
         FROM api_keys k JOIN tenants t ON t.id = k.tenant_id WHERE k.key_hash = ?`,
      )
      .get(keyHash) as
      (KeyRow & { t_id: string; t_name: string; t_plan: string; t_suspended: number; t_created_at: string }) | undefined;
    if (!row) return undefined;
    return {
      key: toKey(row),
      tenant: toTenant({
        id: row.t_id,
        name: row.t_name,
        plan: row.t_plan,
        suspended: row.t_suspended,
        created_at: row.t_created_at,
      }),
    };
  }

  async listKeys(tenantId?: string): Promise<ApiKeyRecord[]> {
    const cols = KEY_COLUMNS;
    const rows = tenantId
      ? this.statements.get(`SELECT ${cols} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, key_id`).all(tenantId)
      : this.statements.get(`SELECT ${cols} FROM api_keys ORDER BY created_at, key_id`).all();
    return (rows as KeyRow[]).map(toKey);
  }

  async revokeKey(keyId: string, at: string): Promise<boolean> {
    const result = this.statements
      .get("UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL")
      .run(at, keyId);
    return result.changes > 0;
  }

  async setPlan(tenantId: string, plan: PlanId): Promise<void> {
    this.statements.get("UPDATE tenants SET plan = ? WHERE id = ?").run(plan, tenantId);
  }

  async setSuspended(tenantId: string, suspended: boolean): Promise<void> {
    this.statements.get("UPDATE tenants SET suspended = ? WHERE id = ?").run(suspended ? 1 : 0, tenantId);
  }

  async findKey(keyId: string): Promise<ApiKeyRecord | undefined> {
    const row = this.statements.get(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_id = ?`).get(keyId) as KeyRow | undefined;
    return row && toKey(row);
  }

  async expireKey(keyId: string, at: string): Promise<boolean> {
    const result = this.statements
      .get(
        "UPDATE api_keys SET expires_at = ? WHERE key_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
      )
      .run(at, keyId, at);
    return result.changes > 0;
  }

  async touchKey(keyId: string, at: string): Promise<void> {
    this.statements
      .get("UPDATE api_keys SET last_used_at = ? WHERE key_id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
      .run(at, keyId, at);
  }

  async reserve(request: Reserve): Promise<Reservation> {
    const { tenantId, period, nowMs, rates, credits } = request;
    return this.db
      .transaction((): Reservation => {
        const current = {
          credits_used: this.monthUsed(tenantId, period),
          minute_tokens: this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs),
        };
        const admission = admitCredits(current, request);
        if (!admission.admitted) return admission;
        this.addToMonth(tenantId, period, credits);
        this.setBucket(tenantId, "credits", admission.state.minute_tokens, nowMs);
        if (request.holdId !== undefined) {
          this.statements
            .get("INSERT INTO credit_holds (id, tenant_id, period, credits, holder) VALUES (?, ?, ?, ?, ?)")
            .run(request.holdId, tenantId, period, credits, this.holder);
        }
        return admission;
      })
      .immediate();
  }

  async release(
    tenantId: string,
    period: string,
    credits: number,
    rates: Rates,
    nowMs: number,
    operation?: string,
  ): Promise<CreditState> {
    return this.db
      .transaction((): CreditState => {
        if (operation !== undefined) this.count(tenantId, nowMs, operation, 0, -credits);
        return this.giveBack(tenantId, period, credits, rates, nowMs);
      })
      .immediate();
  }

  async settle(hold: HeldCredits, charged: number, rates: Rates, nowMs: number): Promise<CreditState> {
    return this.db
      .transaction((): CreditState => {
        const held = this.statements.get("DELETE FROM credit_holds WHERE id = ?").run(hold.holdId).changes > 0;
        // Released as abandoned already: the reservation is gone, so the charge is counted afresh.
        const unused = held ? hold.credits - charged : -charged;
        this.count(hold.tenantId, nowMs, hold.operation, 1, charged);
        return this.giveBack(hold.tenantId, hold.period, unused, rates, nowMs);
      })
      .immediate();
  }

  async releaseAbandonedHolds(): Promise<number> {
    const holders = (this.statements.get("SELECT DISTINCT holder FROM credit_holds").all() as Array<{ holder: string }>)
      .map((row) => row.holder)
      .filter((holder) => !holderAlive(holder));
    return this.db
      .transaction((): number => {
        let released = 0;
        for (const holder of holders) {
          const rows = this.statements
            .get("DELETE FROM credit_holds WHERE holder = ? RETURNING tenant_id, period, credits")
            .all(holder) as Array<{ tenant_id: string; period: string; credits: number }>;
          // The month only: the minute bucket has refilled by the time a restart reads it.
          for (const row of rows) this.addToMonth(row.tenant_id, row.period, -row.credits);
          released += rows.length;
        }
        return released;
      })
      .immediate();
  }

  async creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState> {
    return {
      credits_used: this.monthUsed(tenantId, period),
      minute_tokens: this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs),
    };
  }

  async countFreeCall(tenantId: string, operation: string, nowMs: number): Promise<void> {
    this.count(tenantId, nowMs, operation, 1, 0);
  }

  async usage(tenantId: string, fromDay: string, toDay: string): Promise<UsageDay[]> {
    const rows = this.statements
      .get(
        "SELECT day, operation, calls, credits FROM usage_days WHERE tenant_id = ? AND day >= ? AND day <= ? ORDER BY day, operation",
      )
      .all(tenantId, fromDay, toDay) as UsageRow[];
    return rows.map(toUsageDay);
  }

  async createUser(user: ConsoleUser, passwordHash: string): Promise<void> {
    this.statements
      .get("INSERT INTO console_users (user_id, tenant_id, email, password_hash, created_at) VALUES (?, ?, ?, ?, ?)")
      .run(user.user_id, user.tenant_id, user.email.toLowerCase(), passwordHash, user.created_at);
  }

  async findUser(email: string): Promise<{ user: ConsoleUser; password_hash: string } | undefined> {
    const row = this.statements.get("SELECT * FROM console_users WHERE email = ?").get(email.toLowerCase()) as
      (UserRow & { password_hash: string }) | undefined;
    return row && { user: toUser(row), password_hash: row.password_hash };
  }

  async listUsers(tenantId?: string): Promise<ConsoleUser[]> {
    const cols = "user_id, tenant_id, email, created_at";
    const rows = tenantId
      ? this.statements.get(`SELECT ${cols} FROM console_users WHERE tenant_id = ? ORDER BY created_at, email`).all(tenantId)
      : this.statements.get(`SELECT ${cols} FROM console_users ORDER BY created_at, email`).all();
    return (rows as UserRow[]).map(toUser);
  }

  async setPassword(userId: string, passwordHash: string): Promise<boolean> {
    return (
      this.statements.get("UPDATE console_users SET password_hash = ? WHERE user_id = ?").run(passwordHash, userId).changes > 0
    );
  }

  async createSession(session: ConsoleSession): Promise<void> {
    this.statements
      .get(
        "INSERT INTO console_sessions (session_hash, role, tenant_id, user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(
        session.session_hash,
        session.role,
        session.tenant_id,
        session.user_id,
        session.csrf_token,
        session.created_at,
        session.expires_at,
      );
  }

  async findSession(sessionHash: string): Promise<ConsoleSession | undefined> {
    const row = this.statements.get("SELECT * FROM console_sessions WHERE session_hash = ?").get(sessionHash) as
      SessionRow | undefined;
    return row && toSession(row);
  }

  async deleteSession(sessionHash: string): Promise<void> {
    this.statements.get("DELETE FROM console_sessions WHERE session_hash = ?").run(sessionHash);
  }

  async deleteExpiredSessions(at: string): Promise<number> {
    return this.statements.get("DELETE FROM console_sessions WHERE expires_at <= ?").run(at).changes;
  }

  async takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission> {
    return this.db
      .transaction((): MessageAdmission => {
        const { tokens, ...admission } = admitMessage(this.refilled(tenantId, "messages", perMinute, nowMs));
        if (admission.admitted) this.setBucket(tenantId, "messages", tokens, nowMs);
        return admission;
      })
      .immediate();
  }

  async close(): Promise<void> {
    OPEN_HOLDERS.delete(this.holder);
    this.db.close();
  }

  /** Gives `credits` back to the month and the minute bucket (a negative amount charges them); the counters after. */
  private giveBack(tenantId: string, period: string, credits: number, rates: Rates, nowMs: number): CreditState {
    if (credits !== 0) {
      this.addToMonth(tenantId, period, -credits);
      const tokens = this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs);
      this.setBucket(tenantId, "credits", refundedTokens(tokens, credits, rates.creditsPerMinute), nowMs);
    }
    return {
      credits_used: this.monthUsed(tenantId, period),
      minute_tokens: this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs),
    };
  }

  /** Adds to the usage counter of the tenant's UTC day of `nowMs` and `operation`. */
  private count(tenantId: string, nowMs: number, operation: string, calls: number, credits: number): void {
    this.statements
      .get(
        `INSERT INTO usage_days (tenant_id, day, operation, calls, credits) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (tenant_id, day, operation) DO UPDATE SET calls = calls + excluded.calls, credits = credits + excluded.credits`,
      )
      .run(tenantId, toStamp(nowMs).slice(0, 8), operation, calls, credits);
  }

  private monthUsed(tenantId: string, period: string): number {
    const row = this.statements
      .get("SELECT credits_used FROM credit_months WHERE tenant_id = ? AND period = ?")
      .get(tenantId, period) as { credits_used: number } | undefined;
    return row?.credits_used ?? 0;
  }

  private addToMonth(tenantId: string, period: string, credits: number): void {
    this.statements
      .get(
        `INSERT INTO credit_months (tenant_id, period, credits_used) VALUES (?, ?, ?)
         ON CONFLICT (tenant_id, period) DO UPDATE SET credits_used = credits_used + excluded.credits_used`,
      )
      .run(tenantId, period, credits);
  }

  private refilled(tenantId: string, kind: string, perMinute: number, nowMs: number): number {
    const row = this.statements
      .get("SELECT tokens, updated_ms FROM buckets WHERE tenant_id = ? AND kind = ?")
      .get(tenantId, kind) as { tokens: number; updated_ms: number } | undefined;
    return refilledTokens(row && { tokens: row.tokens, updatedMs: row.updated_ms }, perMinute, nowMs);
  }

  /** The bucket's clock never goes back: a call stamped before the last update must not earn that refill again. */
  private setBucket(tenantId: string, kind: string, tokens: number, nowMs: number): void {
    this.statements
      .get(
        `INSERT INTO buckets (tenant_id, kind, tokens, updated_ms) VALUES (?, ?, ?, ?)
         ON CONFLICT (tenant_id, kind) DO UPDATE SET tokens = excluded.tokens, updated_ms = max(updated_ms, excluded.updated_ms)`,
      )
      .run(tenantId, kind, tokens, nowMs);
  }
}
