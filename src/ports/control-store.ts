import type { Admission, CreditDemand, CreditState, MessageAdmission } from "../domain/billing/admission.js";
import type { PlanId } from "../domain/plans.js";

export type { CreditState, MessageAdmission } from "../domain/billing/admission.js";

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
  /** 14-digit UTC of the latest call with the key, to the minute; null when never used. */
  last_used_at: string | null;
}

export interface KeyOwner {
  key: ApiKeyRecord;
  tenant: Tenant;
}

/** The figures a tenant's buckets refill at: the plan's. */
export interface Rates {
  /** Per-minute credit bucket size and refill per 60 s. */
  creditsPerMinute: number;
}

export interface Reserve extends CreditDemand {
  tenantId: string;
  /** `YYYYMM` of the month counted in. */
  period: string;
  nowMs: number;
  rates: Rates;
  /**
   * Keeps the reservation as a hold of this id, owned by this store's process
   * until settled: a hold whose process ended unsettled (a crash) is released
   * by `releaseAbandonedHolds`. Without it the reservation is a plain debit.
   */
  holdId?: string;
}

export type Reservation = Admission;

/** A reservation kept as a hold, as `settle` needs it. */
export interface HeldCredits {
  holdId: string;
  tenantId: string;
  period: string;
  /** The credits reserved: the call's worst case. */
  credits: number;
  /** The operation the credits are counted under in the per-day usage counters. */
  operation: string;
}

/** A console sign-in for a tenant: email and a password kept as a scrypt hash. */
export interface ConsoleUser {
  user_id: string;
  tenant_id: string;
  email: string;
  created_at: string;
}

/** A signed-in console: found by the hash of its cookie; an operator's has no tenant. */
export interface ConsoleSession {
  /** SHA-256 of the cookie's value: a stolen database holds no usable session. */
  session_hash: string;
  role: "operator" | "tenant";
  tenant_id: string | null;
  user_id: string | null;
  /** The per-session token every state-changing form carries. */
  csrf_token: string;
  created_at: string;
  expires_at: string;
}

/** A tenant's calls and credits on one UTC day under one operation. */
export interface UsageDay {
  /** `YYYYMMDD`, UTC. */
  day: string;
  operation: string;
  calls: number;
  credits: number;
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
  /** Records a call with the key at `at` (the caller limits how often). */
  touchKey(keyId: string, at: string): Promise<void>;

  /**
   * Atomically: refills the tenant's minute bucket, checks the monthly cap and
   * the bucket, and when both allow, adds `credits` to the month and takes them
   * from the bucket. Nothing changes on a refusal.
   */
  reserve(request: Reserve): Promise<Reservation>;
  /**
   * Gives back credits a reservation held but the call did not take (all of them on an error). With `operation`, the
   * day's usage counter of that operation gives them back too.
   */
  release(
    tenantId: string,
    period: string,
    credits: number,
    rates: Rates,
    nowMs: number,
    operation?: string,
  ): Promise<CreditState>;
  /**
   * Settles a hold to `charged`: removes it and gives back what it held beyond
   * that. A hold already released as abandoned is charged `charged` afresh, so
   * the call counts once either way. In the same transaction, one call and
   * `charged` credits are added to the day's usage counter of the hold's operation.
   */
  settle(hold: HeldCredits, charged: number, rates: Rates, nowMs: number): Promise<CreditState>;
  /**
   * Gives back the holds of processes that ended without settling them (a
   * crash, a kill): an unanswered call is charged nothing. Holds of a running
   * process, this one or another replica on the same store, are never touched.
   * Returns the number of holds released.
   */
  releaseAbandonedHolds(): Promise<number>;
  creditState(tenantId: string, period: string, rates: Rates, nowMs: number): Promise<CreditState>;

  /** Adds a call charged nothing (a free call) to the day's usage counter of `operation`. */
  countFreeCall(tenantId: string, operation: string, nowMs: number): Promise<void>;
  /** The tenant's usage counters from `fromDay` to `toDay` (`YYYYMMDD`, inclusive), by day then operation. */
  usage(tenantId: string, fromDay: string, toDay: string): Promise<UsageDay[]>;

  createUser(user: ConsoleUser, passwordHash: string): Promise<void>;
  /** The user with this email (compared lower-cased) and its password hash. */
  findUser(email: string): Promise<{ user: ConsoleUser; password_hash: string } | undefined>;
  listUsers(tenantId?: string): Promise<ConsoleUser[]>;
  /** Replaces a user's password hash; false when no such user. */
  setPassword(userId: string, passwordHash: string): Promise<boolean>;
  createSession(session: ConsoleSession): Promise<void>;
  /** The session with this hash; expired ones are returned too: callers decide. */
  findSession(sessionHash: string): Promise<ConsoleSession | undefined>;
  deleteSession(sessionHash: string): Promise<void>;
  /** Deletes sessions that expired at or before `at`; the number deleted. */
  deleteExpiredSessions(at: string): Promise<number>;

  /** Takes one message token (free calls and refused requests) from a bucket of `perMinute`, refilled continuously. */
  takeMessage(tenantId: string, perMinute: number, nowMs: number): Promise<MessageAdmission>;

  close(): Promise<void>;
}
