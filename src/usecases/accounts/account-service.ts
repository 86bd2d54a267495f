import { PLANS, type Plan, type PlanId } from "../../domain/plans.js";
import type { ApiKeyRecord, ControlStore, Tenant } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import { toStamp } from "../../shared/timestamps.js";
import { generateKey, generateKeyId, hashKey } from "./api-keys.js";

/** Who is calling: the key, its tenant and the tenant's plan. */
export interface Caller {
  key: ApiKeyRecord;
  tenant: Tenant;
  plan: Plan;
}

/** Short-lived keys (spec section 5, rule 7). */
export const MAX_TTL_HOURS = 24;
/** A key's `last_used_at` is written at most this often: one write a minute, not one a call. */
const LAST_USED_EVERY_MS = 60_000;
/** The longest overlap a rotation allows. */
export const MAX_GRACE_MINUTES = 7 * 24 * 60;

export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
  tenant: Tenant;
}

export class AccountService {
  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
  ) {}

  /** Spec section 5, rule 3: the key first, then suspension. */
  async authenticate(presented: string | undefined): Promise<Caller> {
    const caller = await this.identify(presented);
    this.assertActive(caller);
    return caller;
  }

  /** Suspension, checked once the key is known (a suspended tenant's 402 is still an authenticated answer). */
  assertActive(caller: Caller): void {
    if (caller.tenant.suspended) {
      throw new ApiError(
        "suspended",
        `Tenant ${caller.tenant.name} is suspended: its subscription was canceled or its payment failed.`,
      );
    }
  }

  /**
   * The key alone: valid, not revoked, not expired. MCP opens a session on this
   * (a suspended tenant still initializes; its refusal comes on a costly call).
   */
  async identify(presented: string | undefined): Promise<Caller> {
    if (!presented) {
      throw new ApiError("unauthorized", "Send your API key in the x-api-key header or as Authorization: Bearer <key>.");
    }
    const owner = await this.store.findKeyOwner(hashKey(presented));
    const nowMs = this.clock.now();
    const now = toStamp(nowMs);
    if (!owner || owner.key.revoked_at !== null || (owner.key.expires_at !== null && owner.key.expires_at <= now)) {
      throw new ApiError("unauthorized", "The API key is not valid: unknown, revoked or expired.");
    }
    const lastUsed = owner.key.last_used_at;
    if (lastUsed === null || lastUsed <= toStamp(nowMs - LAST_USED_EVERY_MS)) {
      await this.store.touchKey(owner.key.key_id, now);
      owner.key.last_used_at = now;
    }
    return { key: owner.key, tenant: owner.tenant, plan: PLANS[owner.tenant.plan] };
  }

  /**
   * The owner of a key by its id, for work done on its behalf later (watch
   * runs, webhook deliveries); `usable` is false when the key is revoked or
   * expired or its tenant suspended. Undefined when the key or tenant is gone.
   */
  async callerForKey(keyId: string): Promise<{ caller: Caller; usable: boolean } | undefined> {
    const key = await this.store.findKey(keyId);
    const tenant = key && (await this.store.findTenantById(key.tenant_id));
    if (!key || !tenant) return undefined;
    const now = toStamp(this.clock.now());
    const live = key.revoked_at === null && (key.expires_at === null || key.expires_at > now);
    return { caller: { key, tenant, plan: PLANS[tenant.plan] }, usable: live && !tenant.suspended };
  }

  async createTenant(name: string, plan: PlanId): Promise<Tenant> {
    if (await this.store.findTenant(name)) throw new ApiError("invalid_parameter", `A tenant named ${name} exists already.`);
    return this.store.createTenant(name, plan);
  }

  async listTenants(): Promise<Tenant[]> {
    return this.store.listTenants();
  }

  async tenant(name: string): Promise<Tenant> {
    const tenant = await this.store.findTenant(name);
    if (!tenant) throw new ApiError("not_found", `No tenant is named ${name}.`);
    return tenant;
  }

  /** Every key of the tenant moves with it: keys share the tenant's plan and credits. */
  async setPlan(name: string, plan: PlanId): Promise<Tenant> {
    const tenant = await this.tenant(name);
    await this.store.setPlan(tenant.id, plan);
    return { ...tenant, plan };
  }

  /** Suspension (canceled subscription, failed payment) refuses every key with 402 until resumed. */
  async setSuspended(name: string, suspended: boolean): Promise<Tenant> {
    const tenant = await this.tenant(name);
    await this.store.setSuspended(tenant.id, suspended);
    return { ...tenant, suspended };
  }

  /**
   * Issues a key for a tenant, creating the tenant on `plan` when it does not
   * exist yet (an existing tenant keeps its plan: every key shares it). A
   * short-lived key expires after `ttlHours`, at most 24.
   */
  async issueKey(tenantName: string, plan: PlanId | undefined, options: { ttlHours?: number } = {}): Promise<IssuedKey> {
    const { ttlHours } = options;
    if (ttlHours !== undefined && !(ttlHours > 0 && ttlHours <= MAX_TTL_HOURS)) {
      throw new ApiError(
        "invalid_parameter",
        `A short-lived key lives more than 0 and at most ${MAX_TTL_HOURS} hours; got ${ttlHours}.`,
      );
    }
    const existing = await this.store.findTenant(tenantName);
    if (existing && plan !== undefined && existing.plan !== plan) {
      throw new ApiError(
        "invalid_parameter",
        `Tenant ${tenantName} is on plan ${existing.plan}; every key of a tenant shares its plan. Change the tenant's plan instead.`,
      );
    }
    if (!existing && plan === undefined)
      throw new ApiError("not_found", `No tenant is named ${tenantName}; give a plan to create it.`);
    const tenant = existing ?? (await this.store.createTenant(tenantName, plan as PlanId));
    const nowMs = this.clock.now();
    return this.insertKey(tenant, nowMs, ttlHours === undefined ? null : toStamp(nowMs + ttlHours * 3_600_000));
  }

  /**
   * Rotation issues the new key before the old one stops: the old key keeps
   * working for `graceMinutes` (0: revoked at once), so clients can switch
   * without a failed call. The new key inherits the old one's expiry, if any.
   */
  async rotateKey(keyId: string, graceMinutes: number): Promise<IssuedKey & { replaced: ApiKeyRecord }> {
    const old = await this.store.findKey(keyId);
    const nowMs = this.clock.now();
    const now = toStamp(nowMs);
    if (!old || old.revoked_at !== null || (old.expires_at !== null && old.expires_at <= now)) {
      throw new ApiError("not_found", `No live key has the id ${keyId}.`);
    }
    if (!(Number.isInteger(graceMinutes) && graceMinutes >= 0 && graceMinutes <= MAX_GRACE_MINUTES)) {
      throw new ApiError(
        "invalid_parameter",
        `The grace period is a whole number of minutes from 0 to ${MAX_GRACE_MINUTES}; got ${graceMinutes}.`,
      );
    }
    const tenant = (await this.store.listTenants()).find((t) => t.id === old.tenant_id);
    if (!tenant) throw new ApiError("not_found", `The tenant of key ${keyId} no longer exists.`);
    const issued = await this.insertKey(tenant, nowMs, old.expires_at);
    if (graceMinutes === 0) await this.store.revokeKey(keyId, now);
    else {
      const end = toStamp(nowMs + graceMinutes * 60_000);
      if (old.expires_at === null || old.expires_at > end) await this.store.expireKey(keyId, end);
    }
    return { ...issued, replaced: (await this.store.findKey(keyId)) ?? old };
  }

  async listKeys(tenantName?: string): Promise<Array<ApiKeyRecord & { tenant: string; plan: PlanId }>> {
    const tenants = new Map((await this.store.listTenants()).map((t) => [t.id, t]));
    const only = tenantName === undefined ? undefined : (await this.tenant(tenantName)).id;
    return (await this.store.listKeys(only)).map((k) => {
      const tenant = tenants.get(k.tenant_id);
      return { ...k, tenant: tenant?.name ?? k.tenant_id, plan: tenant?.plan ?? "free" };
    });
  }

  async revokeKey(keyId: string): Promise<boolean> {
    return this.store.revokeKey(keyId, toStamp(this.clock.now()));
  }

  async tenantCount(): Promise<number> {
    return (await this.store.listTenants()).length;
  }

  private async insertKey(tenant: Tenant, nowMs: number, expiresAt: string | null): Promise<IssuedKey> {
    const { key, prefix } = generateKey();
    const record: ApiKeyRecord = {
      key_id: generateKeyId(),
      tenant_id: tenant.id,
      prefix,
      created_at: toStamp(nowMs),
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
    };
    await this.store.insertKey(record, hashKey(key));
    return { key, record, tenant };
  }
}
