import { isPlanId, PLAN_IDS, type PlanId } from "../domain/plans.js";
import type { AccountService } from "../usecases/accounts/account-service.js";
import type { ConsoleUsers } from "../usecases/console/console-users.js";
import type { CliIo } from "./cli-io.js";
import { UsageError } from "./usage.js";

// newsindex tenants ..., keys ... and users ...: the operator's account verbs.

export interface AccountFlags {
  tenant?: string | undefined;
  email?: string | undefined;
  plan?: string | undefined;
  "ttl-hours"?: string | undefined;
  "grace-minutes"?: string | undefined;
  json?: boolean | undefined;
}

/** Rotation's default overlap: long enough to redeploy a client with the new key. */
const DEFAULT_GRACE_MINUTES = 15;

export async function tenantsCommand(accounts: AccountService, args: string[], flags: AccountFlags, io: CliIo): Promise<number> {
  const [verb, name, planArg] = args;
  switch (verb) {
    case "create": {
      const tenant = await accounts.createTenant(required(name, "tenants create needs NAME"), plan(flags.plan));
      print(io, flags, tenant, `created tenant ${tenant.name} on plan ${tenant.plan}`);
      return 0;
    }
    case "list": {
      const tenants = await accounts.listTenants();
      if (flags.json) io.out(JSON.stringify(tenants));
      else for (const t of tenants) io.out(`${t.name}\t${t.plan}\t${t.suspended ? "suspended" : "active"}\t${t.created_at}`);
      return 0;
    }
    case "set-plan": {
      const tenant = await accounts.setPlan(required(name, "tenants set-plan needs NAME"), plan(planArg));
      io.out(`tenant ${tenant.name} is now on plan ${tenant.plan}`);
      return 0;
    }
    case "suspend":
    case "resume": {
      const tenant = await accounts.setSuspended(required(name, `tenants ${verb} needs NAME`), verb === "suspend");
      io.out(`tenant ${tenant.name} is ${tenant.suspended ? "suspended" : "active"}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown tenants verb: ${verb ?? "(none)"}`);
  }
}

export async function keysCommand(accounts: AccountService, args: string[], flags: AccountFlags, io: CliIo): Promise<number> {
  const [verb, keyId] = args;
  switch (verb) {
    case "create": {
      const tenant = required(flags.tenant, "keys create needs --tenant NAME");
      const ttlHours = flags["ttl-hours"] === undefined ? undefined : number(flags["ttl-hours"], "--ttl-hours");
      const issued = await accounts.issueKey(tenant, flags.plan === undefined ? undefined : plan(flags.plan), { ttlHours });
      const out = {
        key: issued.key,
        key_id: issued.record.key_id,
        tenant: issued.tenant.name,
        plan: issued.tenant.plan,
        prefix: issued.record.prefix,
        created_at: issued.record.created_at,
        expires_at: issued.record.expires_at,
      };
      const expiry = out.expires_at ? `, expires ${out.expires_at} UTC` : "";
      print(
        io,
        flags,
        out,
        `Created ${out.key_id} for tenant ${out.tenant} (plan ${out.plan}${expiry}). The key, shown this once:\n${out.key}`,
      );
      return 0;
    }
    case "list": {
      const keys = await accounts.listKeys(flags.tenant);
      if (flags.json) io.out(JSON.stringify(keys));
      else
        for (const k of keys) {
          const state = k.revoked_at ? `revoked ${k.revoked_at}` : k.expires_at ? `expires ${k.expires_at}` : "active";
          io.out(`${k.key_id}\t${k.prefix}…\t${k.tenant}\t${k.plan}\t${k.created_at}\t${state}`);
        }
      return 0;
    }
    case "rotate": {
      const grace =
        flags["grace-minutes"] === undefined ? DEFAULT_GRACE_MINUTES : number(flags["grace-minutes"], "--grace-minutes");
      const issued = await accounts.rotateKey(required(keyId, "keys rotate needs KEY_ID"), grace);
      const out = {
        key: issued.key,
        key_id: issued.record.key_id,
        tenant: issued.tenant.name,
        plan: issued.tenant.plan,
        replaces: issued.replaced.key_id,
        replaced_until: issued.replaced.revoked_at ?? issued.replaced.expires_at,
      };
      print(
        io,
        flags,
        out,
        `Rotated ${out.replaces} (works until ${out.replaced_until} UTC) to ${out.key_id}. The new key, shown this once:\n${out.key}`,
      );
      return 0;
    }
    case "revoke": {
      const id = required(keyId, "keys revoke needs KEY_ID");
      if (await accounts.revokeKey(id)) {
        io.out(`revoked ${id}`);
        return 0;
      }
      io.err(`no live key with id ${id}`);
      return 1;
    }
    default:
      throw new UsageError(`unknown keys verb: ${verb ?? "(none)"}`);
  }
}

export async function usersCommand(users: ConsoleUsers, args: string[], flags: AccountFlags, io: CliIo): Promise<number> {
  const [verb] = args;
  switch (verb) {
    case "create": {
      const created = await users.create(
        required(flags.tenant, "users create needs --tenant NAME"),
        required(flags.email, "users create needs --email EMAIL"),
      );
      const out = {
        user_id: created.user.user_id,
        tenant: created.tenant,
        email: created.user.email,
        password: created.password,
      };
      print(
        io,
        flags,
        out,
        `Created console user ${out.email} for tenant ${out.tenant}. The one-time password, shown this once:\n${out.password}`,
      );
      return 0;
    }
    case "list": {
      const list = await users.list();
      if (flags.json) io.out(JSON.stringify(list));
      else for (const u of list) io.out(`${u.user_id}\t${u.email}\t${u.tenant_id}\t${u.created_at}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown users verb: ${verb ?? "(none)"}`);
  }
}

function print(io: CliIo, flags: AccountFlags, value: unknown, human: string): void {
  io.out(flags.json ? JSON.stringify(value) : human);
}

function required(value: string | undefined, problem: string): string {
  if (!value) throw new UsageError(problem);
  return value;
}

function plan(value: string | undefined): PlanId {
  if (value === undefined || !isPlanId(value)) throw new UsageError(`a plan is one of: ${PLAN_IDS.join(", ")}`);
  return value;
}

function number(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new UsageError(`${flag} takes a number`);
  return n;
}
