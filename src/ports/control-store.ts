import type { PlanId } from "../domain/plans.js";

// Tenants, API keys and credit counters. SQLite (control.db) in the embedded
// shape, PostgreSQL when replicas share it.

export interface Tenant {
  id: string;
  name: string;
  plan: PlanId;
  suspended: boolean;
  created_at: string;
}

export interface ApiKeyRecord {
  key_id: string;
  tenant_id: string;
  /** First characters of the key, kept to recognise it in listings. */
  prefix: string;
  created_at: string;
  /** 14-digit UTC; null means it does not expire. */
  expires_at: string | null;
  revoked_at: string | null;
}

export interface KeyOwner {
  key: ApiKeyRecord;
  tenant: Tenant;
}

export interface CreditState {
  /** Credits used in the current calendar month (UTC). */
  credits_used: number;
  /** Tokens left in the per-minute bucket. */
  minute_tokens: number;
}

export interface ControlStore {
  createTenant(name: string, plan: PlanId): Promise<Tenant>;
  findTenant(name: string): Promise<Tenant | undefined>;
  listTenants(): Promise<Tenant[]>;

  /** Stores a key by its SHA-256 hash only. */
  insertKey(record: ApiKeyRecord, keyHash: string): Promise<void>;
  /** The live owner of a key hash; undefined when unknown. Revoked and expired keys are returned too: callers decide. */
  findKeyOwner(keyHash: string): Promise<KeyOwner | undefined>;
  listKeys(tenantId?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no such live key. */
  revokeKey(keyId: string, at: string): Promise<boolean>;

  /**
   * Adds `credits` to the tenant's month counter and takes them from its
   * per-minute bucket (refilled continuously at `perMinute` per 60 s), atomically.
   * `period` is `YYYYMM`; `nowMs` drives the refill.
   */
  charge(tenantId: string, credits: number, period: string, perMinute: number, nowMs: number): Promise<CreditState>;
  /** The same figures without charging. */
  creditState(tenantId: string, period: string, perMinute: number, nowMs: number): Promise<CreditState>;

  close(): Promise<void>;
}
