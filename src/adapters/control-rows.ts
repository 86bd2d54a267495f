import type { PlanId } from "../domain/plans.js";
import type { ApiKeyRecord, ConsoleSession, ConsoleUser, Tenant, UsageDay } from "../ports/control-store.js";

// Row shapes shared by the control-store adapters (SQLite and PostgreSQL).

export interface TenantRow {
  id: string;
  name: string;
  plan: string;
  /** SQLite stores 0/1; PostgreSQL a boolean. */
  suspended: number | boolean;
  created_at: string;
}

export interface KeyRow {
  key_id: string;
  tenant_id: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** The api_keys columns a key record is read from (never the hash). */
export const KEY_COLUMNS = "key_id, tenant_id, prefix, created_at, expires_at, revoked_at, last_used_at";

export interface UserRow {
  user_id: string;
  tenant_id: string;
  email: string;
  created_at: string;
}

export interface SessionRow {
  session_hash: string;
  role: string;
  tenant_id: string | null;
  user_id: string | null;
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** PostgreSQL returns BIGINT sums as strings. */
export interface UsageRow {
  day: string;
  operation: string;
  calls: number | string;
  credits: number | string;
}

export function toTenant(row: TenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as PlanId,
    suspended: row.suspended === true || row.suspended === 1,
    created_at: row.created_at,
  };
}

export function toKey(row: KeyRow): ApiKeyRecord {
  return {
    key_id: row.key_id,
    tenant_id: row.tenant_id,
    prefix: row.prefix,
    created_at: row.created_at,
    expires_at: row.expires_at,
    revoked_at: row.revoked_at,
    last_used_at: row.last_used_at,
  };
}

export function toUser(row: UserRow): ConsoleUser {
  return { user_id: row.user_id, tenant_id: row.tenant_id, email: row.email, created_at: row.created_at };
}

export function toSession(row: SessionRow): ConsoleSession {
  return {
    session_hash: row.session_hash,
    role: row.role === "operator" ? "operator" : "tenant",
    tenant_id: row.tenant_id,
    user_id: row.user_id,
    csrf_token: row.csrf_token,
    created_at: row.created_at,
    expires_at: row.expires_at,
  };
}

export function toUsageDay(row: UsageRow): UsageDay {
  return { day: row.day, operation: row.operation, calls: Number(row.calls), credits: Number(row.credits) };
}
