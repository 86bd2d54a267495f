import { randomBytes } from "node:crypto";
import type { ConsoleUser, ControlStore } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import { toStamp } from "../../shared/timestamps.js";
import { generatePassword, hashPassword, verifyPassword } from "./passwords.js";

// Tenant users of the console: created by the operator (console or
// `newsindex users create`) with a one-time password shown once.

/** The shortest password a user may choose. */
export const MIN_PASSWORD_LENGTH = 12;

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

  /** A user replaces the one-time password (or any later one) knowing the current one. */
  async changePassword(email: string, current: string, next: string): Promise<void> {
    const found = await this.store.findUser(email);
    if (!found || !(await verifyPassword(current, found.password_hash))) {
      throw new ApiError("invalid_parameter", "The current password is not right; nothing changed.");
    }
    if (next.length < MIN_PASSWORD_LENGTH) {
      throw new ApiError("invalid_parameter", `A new password has at least ${MIN_PASSWORD_LENGTH} characters.`);
    }
    await this.store.setPassword(found.user.user_id, await hashPassword(next));
  }

  async list(tenantId?: string): Promise<ConsoleUser[]> {
    return this.store.listUsers(tenantId);
  }
}
