import { PLANS, type Plan, type PlanId } from "../../domain/plans.js";
import type { ApiKeyRecord, ControlStore, Tenant } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import { toStamp } from "../../shared/timestamps.js";
import { generateKey, generateKeyId, hashKey } from "./api-keys.js";
import { creditHeaders, creditPeriod } from "./credit-headers.js";

/** Who is calling: the key, its tenant and the tenant's plan. */
export interface Caller {
  key: ApiKeyRecord;
  tenant: Tenant;
  plan: Plan;
}

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
    if (caller.tenant.suspended) {
      throw new ApiError(
        "suspended",
        `Tenant ${caller.tenant.name} is suspended: its subscription was canceled or its payment failed.`,
      );
    }
    return caller;
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
    const now = toStamp(this.clock.now());
    if (!owner || owner.key.revoked_at !== null || (owner.key.expires_at !== null && owner.key.expires_at <= now)) {
      throw new ApiError("unauthorized", "The API key is not valid: unknown, revoked or expired.");
    }
    return { key: owner.key, tenant: owner.tenant, plan: PLANS[owner.tenant.plan] };
  }

  /** Issues a key for a tenant, creating the tenant on the given plan when it does not exist yet. */
  async issueKey(tenantName: string, plan: PlanId): Promise<IssuedKey> {
    const existing = await this.store.findTenant(tenantName);
    if (existing && existing.plan !== plan) {
      throw new Error(`tenant ${tenantName} exists on plan ${existing.plan}; every key of a tenant shares its plan`);
    }
    const tenant = existing ?? (await this.store.createTenant(tenantName, plan));
    const { key, prefix } = generateKey();
    const record: ApiKeyRecord = {
      key_id: generateKeyId(),
      tenant_id: tenant.id,
      prefix,
      created_at: toStamp(this.clock.now()),
      expires_at: null,
      revoked_at: null,
    };
    await this.store.insertKey(record, hashKey(key));
    return { key, record, tenant };
  }

  async listKeys(): Promise<Array<ApiKeyRecord & { tenant: string; plan: PlanId }>> {
    const tenants = new Map((await this.store.listTenants()).map((t) => [t.id, t]));
    return (await this.store.listKeys()).map((k) => {
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

  /** Records what a call took and returns the credit headers after it. */
  async charge(caller: Caller, credits: number): Promise<Record<string, string>> {
    const nowMs = this.clock.now();
    const state = await this.store.charge(caller.tenant.id, credits, creditPeriod(nowMs), caller.plan.credits_per_minute, nowMs);
    return creditHeaders({ plan: caller.plan, state, charged: credits, nowMs });
  }
}
