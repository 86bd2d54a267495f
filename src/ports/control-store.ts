import type { PlanId } from "../domain/plans.js";

// Tenants, API keys and credit counters. SQLite (control.db) in the embedded
// shape, PostgreSQL when replicas share it: every replica then reports the
// same figures, and admission stays exact because each check-and-debit is one
// transaction in the store.

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
  /** Credits left in the per-minute bucket; negative after a call larger than a minute's credits. */
  minute_tokens: number;
}

/** The figures a tenant's buckets refill at: the plan's. */
export interface Rates {
  /** Per-minute credit bucket size and refill per 60 s. */
  creditsPerMinute: number;
}

export interface Reserve {
  tenantId: string;
  /** `YYYYMM` of the month counted in. */
  period: string;
  nowMs: number;
  rates: Rates;
  /** Credits to reserve: the call's worst case. */
  credits: number;
  /** Refuse when the month's usage would pass this (a hard-capped plan); null: no cap. */
  monthlyCap: number | null;
  /** Refuse unless the minute bucket holds at least this many credits. */
  minuteNeeded: number;
}

export type Reservation =
  { admitted: true; state: CreditState } | { admitted: false; refusedBy: "monthly" | "minute"; state: CreditState };

export interface MessageAdmission {
  admitted: boolean;
  /** Messages left this minute (after this one when admitted). */
  remaining: number;
}

export interface ControlStore {
  createTenant(name: string, plan: PlanId): Promise<Tenant>;
  findTenant(name: string): Promise<Tenant | undefined>;
  findTenantById(id: string): Promise<Tenant | undefined>;
  listTenants(): Promise<Tenant[]>;
  setPlan(tenantId: string, plan: PlanId): Promise<void>;
  setSuspended(tenantId: string, suspended: boolean): Promise<void>;

  /** Stores a key by its SHA-256 hash only. */
  insertKey(record: ApiKeyRecord, keyHash: string): Promise<void>;
  /** The owner of a key hash; undefined when unknown. Revoked and expired keys are returned too: callers decide. */
  findKeyOwner(keyHash: string): Promise<KeyOwner | undefined>;
  findKey(keyId: string): Promise<ApiKeyRecord | undefined>;
  listKeys(tenantId?: string): Promise<ApiKeyRecord[]>;
  /** Marks a key revoked; false when no such live key. */
  revokeKey(keyId: string, at: string): Promise<boolean>;
  /** Sets when a live key stops working (rotation's overlap); false when no such live key. */
  expireKey(keyId: string, at: string): Promise<boolean>;

  /**
   * Atomically: refills the tenant's minute bucket, checks the monthly cap and
   * the bucket, and when both allow, adds `credits` to the month and takes them
   * from the bucket. Nothing changes on a refusal.
   */
  reserve(request: Reserve): Promise<Reservation>;
  /** Gives back credits a reservation held but the call did not take (all of them on an error). */
  release(tenantId: string, period: string, credits: number, rates: Rates, nowMs: number): Promise<CreditState>;
  creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState>;

  /** Takes one message token (free calls and refused requests) from a bucket of `perMinute`, refilled continuously. */
  takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission>;

  close(): Promise<void>;
}
