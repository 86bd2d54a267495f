import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { ConsoleSession, ControlStore, Tenant } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { Clock } from "../../shared/clock.js";
import { toStamp } from "../../shared/timestamps.js";
import { verifyNothing, verifyPassword } from "./passwords.js";

// Console sign-in and sessions. A session lives server-side, found by the
// SHA-256 of the cookie's random value; it expires after a fixed time and ends
// at sign-out. The operator signs in with the operator token, a tenant user
// with email and password; neither ever holds an API key in the browser.

/** How long a console session lasts from sign-in. */
export const SESSION_HOURS = 8;

/** Who is signed in: the session and, for a tenant user, the tenant and email. */
export interface Viewer {
  session: ConsoleSession;
  tenant: Tenant | undefined;
  email: string | undefined;
}

export interface SignedIn {
  viewer: Viewer;
  /** The cookie's value, given to the browser once; only its hash is kept. */
  cookie: string;
}

/** Failed sign-ins allowed for one account (an email, or the operator) per window, before it waits. */
export const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

const REFUSED_USER = "The email or the password is not right.";
const REFUSED_OPERATOR = "The operator token is not right.";

export class ConsoleSessions {
  /** Failed sign-ins by account: guessing is slowed to a few tries a window (per process). */
  private readonly failures = new Map<string, { count: number; sinceMs: number }>();

  constructor(
    private readonly store: ControlStore,
    private readonly clock: Clock,
    private readonly sessionMs: number = SESSION_HOURS * 3_600_000,
  ) {}

  /** `expected` is the operator token the server was started with. */
  async signInOperator(presented: string, expected: string): Promise<SignedIn> {
    this.assertNotThrottled("operator");
    if (!timingSafeEqual(digest(presented), digest(expected))) throw this.failed("operator", REFUSED_OPERATOR);
    return this.open({ role: "operator", tenant: undefined, userId: null, email: undefined });
  }

  async signInUser(email: string, password: string): Promise<SignedIn> {
    const account = `user:${email.trim().toLowerCase()}`;
    this.assertNotThrottled(account);
    const found = await this.store.findUser(email.trim());
    const ok = found ? await verifyPassword(password, found.password_hash) : await verifyNothing(password);
    const tenant = found && (await this.store.findTenantById(found.user.tenant_id));
    if (!ok || !found || !tenant) throw this.failed(account, REFUSED_USER);
    this.failures.delete(account);
    return this.open({ role: "tenant", tenant, userId: found.user.user_id, email: found.user.email });
  }

  /** The viewer of a cookie; undefined when there is none, it is unknown, or its session expired (then deleted). */
  async find(cookie: string | undefined): Promise<Viewer | undefined> {
    if (!cookie) return undefined;
    const hash = digest(cookie).toString("hex");
    const session = await this.store.findSession(hash);
    if (!session) return undefined;
    if (session.expires_at <= toStamp(this.clock.now())) {
      await this.store.deleteSession(hash);
      return undefined;
    }
    if (session.role === "operator") return { session, tenant: undefined, email: undefined };
    const tenant = session.tenant_id === null ? undefined : await this.store.findTenantById(session.tenant_id);
    const user = tenant && (await this.store.listUsers(tenant.id)).find((u) => u.user_id === session.user_id);
    return tenant && user ? { session, tenant, email: user.email } : undefined;
  }

  async signOut(cookie: string | undefined): Promise<void> {
    if (cookie) await this.store.deleteSession(digest(cookie).toString("hex"));
  }

  private assertNotThrottled(account: string): void {
    const nowMs = this.clock.now();
    const failures = this.failures.get(account);
    if (!failures || nowMs - failures.sinceMs >= SIGN_IN_WINDOW_MS) return;
    if (failures.count >= SIGN_IN_ATTEMPTS) {
      const wait = Math.ceil((failures.sinceMs + SIGN_IN_WINDOW_MS - nowMs) / 1000);
      throw new ApiError(
        "message_rate_limited",
        `Too many failed sign-ins for this account. Try again in ${Math.ceil(wait / 60)} minutes.`,
        {},
        wait,
      );
    }
  }

  private failed(account: string, detail: string): ApiError {
    const nowMs = this.clock.now();
    // Guesses at many emails must not grow the map without bound: windows that ended are dropped.
    if (this.failures.size >= 10_000) {
      for (const [key, f] of this.failures) if (nowMs - f.sinceMs >= SIGN_IN_WINDOW_MS) this.failures.delete(key);
    }
    const failures = this.failures.get(account);
    if (!failures || nowMs - failures.sinceMs >= SIGN_IN_WINDOW_MS) this.failures.set(account, { count: 1, sinceMs: nowMs });
    else failures.count += 1;
    return new ApiError("unauthorized", detail);
  }

  private async open(who: {
    role: ConsoleSession["role"];
    tenant: Tenant | undefined;
    userId: string | null;
    email: string | undefined;
  }): Promise<SignedIn> {
    const nowMs = this.clock.now();
    // Sign-ins are rare: a good moment to drop the sessions that have expired.
    await this.store.deleteExpiredSessions(toStamp(nowMs));
    const cookie = randomBytes(32).toString("base64url");
    const session: ConsoleSession = {
      session_hash: digest(cookie).toString("hex"),
      role: who.role,
      tenant_id: who.tenant?.id ?? null,
      user_id: who.userId,
      csrf_token: randomBytes(24).toString("base64url"),
      created_at: toStamp(nowMs),
      expires_at: toStamp(nowMs + this.sessionMs),
    };
    await this.store.createSession(session);
    return { viewer: { session, tenant: who.tenant, email: who.email }, cookie };
  }
}

function digest(value: string): Buffer {
  return createHash("sha256").update(value, "utf8").digest();
}
