import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { openDatabase } from "./open-database.js";
import { StatementCache } from "./statement-cache.js";
import { SqliteWatchStore } from "./watch-store.js";
import { SqliteFollowerLease, SqliteSlotLedger } from "./slot-ledger.js";
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

// control.db: tenants, keys (hash only) and durable credit counters.

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
`;

export class SqliteControlStore implements ControlStore {
  private readonly db: Database.Database;
  private readonly statements: StatementCache;

  constructor(path: string) {
    this.db = openDatabase(path);
    this.db.pragma("foreign_keys = ON");
    this.db.exec(SCHEMA);
    this.statements = new StatementCache(this.db);
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
        "INSERT INTO api_keys (key_id, tenant_id, key_hash, prefix, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(record.key_id, record.tenant_id, keyHash, record.prefix, record.created_at, record.expires_at, record.revoked_at);
  }

  async findKeyOwner(keyHash: string): Promise<KeyOwner | undefined> {
    const row = this.statements
      .get(
        `SELECT k.key_id, k.tenant_id, k.prefix, k.created_at, k.expires_at, k.revoked_at,
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
    const cols = "key_id, tenant_id, prefix, created_at, expires_at, revoked_at";
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
    const row = this.statements
      .get("SELECT key_id, tenant_id, prefix, created_at, expires_at, revoked_at FROM api_keys WHERE key_id = ?")
      .get(keyId) as KeyRow | undefined;
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

  async reserve(request: Reserve): Promise<Reservation> {
    const { tenantId, period, nowMs, rates, credits } = request;
    return this.db
      .transaction((): Reservation => {
        const used = this.monthUsed(tenantId, period);
        const tokens = this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs);
        if (request.monthlyCap !== null && used + credits > request.monthlyCap) {
          return { admitted: false, refusedBy: "monthly", state: { credits_used: used, minute_tokens: tokens } };
        }
        if (tokens < request.minuteNeeded) {
          return { admitted: false, refusedBy: "minute", state: { credits_used: used, minute_tokens: tokens } };
        }
        this.addToMonth(tenantId, period, credits);
        this.setBucket(tenantId, "credits", tokens - credits, nowMs);
        return { admitted: true, state: { credits_used: used + credits, minute_tokens: tokens - credits } };
      })
      .immediate();
  }

  async release(tenantId: string, period: string, credits: number, rates: Rates, nowMs: number): Promise<CreditState> {
    return this.db
      .transaction((): CreditState => {
        if (credits > 0) {
          this.addToMonth(tenantId, period, -credits);
          const tokens = this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs);
          this.setBucket(tenantId, "credits", Math.min(rates.creditsPerMinute, tokens + credits), nowMs);
        }
        return {
          credits_used: this.monthUsed(tenantId, period),
          minute_tokens: this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs),
        };
      })
      .immediate();
  }

  async creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState> {
    return {
      credits_used: this.monthUsed(tenantId, period),
      minute_tokens: this.refilled(tenantId, "credits", rates.creditsPerMinute, nowMs),
    };
  }

  async takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission> {
    return this.db
      .transaction((): MessageAdmission => {
        const tokens = this.refilled(tenantId, "messages", perMinute, nowMs);
        if (tokens < 1) return { admitted: false, remaining: 0 };
        this.setBucket(tenantId, "messages", tokens - 1, nowMs);
        return { admitted: true, remaining: Math.floor(tokens - 1) };
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.db.close();
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

  /** A bucket refills continuously at perMinute/60 per second, up to perMinute; a new bucket is full. */
  private refilled(tenantId: string, kind: string, perMinute: number, nowMs: number): number {
    const row = this.statements
      .get("SELECT tokens, updated_ms FROM buckets WHERE tenant_id = ? AND kind = ?")
      .get(tenantId, kind) as { tokens: number; updated_ms: number } | undefined;
    if (!row) return perMinute;
    const elapsed = Math.max(0, nowMs - row.updated_ms);
    return Math.min(perMinute, row.tokens + (elapsed * perMinute) / 60_000);
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
