import type { PlanId } from "../domain/plans.js";
import type { ApiKeyRecord, Tenant } from "../ports/control-store.js";

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
  };
}
