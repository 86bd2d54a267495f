import { randomBytes } from "node:crypto";
import type { ConsoleUser, ControlStore } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import { toStamp } from "../../shared/timestamps.js";
import { generatePassword, hashPassword } from "./passwords.js";

// Tenant users of the console: created by the operator (console or
// `newsindex users create`) with a one-time password shown once.

/** Loose on purpose: one @, something either side, no spaces. The operator types it. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface CreatedUser {
  user: ConsoleUser;
  tenant: string;
  /** Shown this once; only its hash is kept. */
  password: string;
}

export class ConsoleUsers {
  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
  ) {}

  async create(tenantName: string, email: string): Promise<CreatedUser> {
    const address = email.trim().toLowerCase();
    if (!EMAIL.test(address) || address.length > 254) {
      throw new ApiError("invalid_parameter", `An email is name@domain, at most 254 characters; got '${email}'.`);
    }
    const tenant = await this.store.findTenant(tenantName);
    if (!tenant) throw new ApiError("not_found", `No tenant is named ${tenantName}.`);
    if (await this.store.findUser(address))
      throw new ApiError("invalid_parameter", `A user with the email ${address} exists already.`);
    const password = generatePassword();
    const user: ConsoleUser = {
      user_id: `usr_${randomBytes(8).toString("hex")}`,
      tenant_id: tenant.id,
      email: address,
      created_at: toStamp(this.clock.now()),
    };
    await this.store.createUser(user, await hashPassword(password));
    return { user, tenant: tenant.name, password };
  }

  async list(tenantId?: string): Promise<ConsoleUser[]> {
    return this.store.listUsers(tenantId);
  }
}
