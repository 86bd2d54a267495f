import { PLANS } from "../../../domain/plans.js";
import type { Tenant } from "../../../ports/control-store.js";
import { toStamp } from "../../../shared/timestamps.js";
import type { Caller } from "../../../usecases/accounts/account-service.js";
import type { Ctx } from "../console-context.js";

/**
 * The tenant in view as a caller of the services, for work the console does
 * for it (the playground's calls, its watches). No key is involved: the record
 * names the console session instead, and is never stored.
 */
export function tenantCaller(ctx: Ctx, tenant: Tenant): Caller {
  const { session } = ctx.viewer;
  return {
    tenant,
    plan: PLANS[tenant.plan],
    key: {
      key_id: `console_${session.user_id ?? "operator"}`,
      tenant_id: tenant.id,
      prefix: "console",
      created_at: session.created_at,
      expires_at: session.expires_at,
      revoked_at: null,
      last_used_at: toStamp(ctx.deps.clock.now()),
    },
  };
}
