import { MAX_GRACE_MINUTES, MAX_TTL_HOURS } from "../../../usecases/accounts/account-service.js";
import { ApiError } from "../../../shared/api-error.js";
import { toStamp } from "../../../shared/timestamps.js";
import type { ConsoleRoutes } from "../console-app.js";
import { field, isOperator, type Ctx, type FormState } from "../console-context.js";
import { formatStamp } from "../format.js";
import { html } from "../html.js";
import { csrfField, message, shownOnce, type Page } from "../layout.js";
import { attempt } from "./attempt.js";

// Keys: issue (short-lived with an expiry of at most 24 hours), rotate with a
// grace period, revoke. A new key is shown once, in a read-only field, in the
// answer to the form that made it: never in a URL, a cookie or browser storage.

/** Rotation's default overlap, as on the command line. */
const DEFAULT_GRACE_MINUTES = 15;

interface KeysState extends FormState {
  newKey?: string;
}

export function registerKeys(routes: ConsoleRoutes): void {
  routes.page("/keys", "signed-in", (ctx) => show(ctx, {}));
  routes.form("/keys", "signed-in", (ctx, body) =>
    attempt(ctx, show, async () => {
      const tenant = isOperator(ctx) ? field(body, "tenant") : (ctx.viewer.tenant?.name ?? "");
      if (!tenant) throw new ApiError("invalid_parameter", "Choose the tenant the key is for.");
      const issued = await ctx.deps.accounts.issueKey(tenant, undefined, { ttlHours: ttlHours(field(body, "ttl_hours")) });
      ctx.reply.status(201);
      const expiry = issued.record.expires_at ? `, expires ${formatStamp(issued.record.expires_at)}` : ", no expiry";
      return { notice: `Created ${issued.record.prefix}… for tenant ${issued.tenant.name}${expiry}.`, newKey: issued.key };
    }),
  );
  routes.form("/keys/rotate", "signed-in", (ctx, body) =>
    attempt(ctx, show, async () => {
      const keyId = await ownedKey(ctx, field(body, "key_id"));
      const issued = await ctx.deps.accounts.rotateKey(keyId, graceMinutes(field(body, "grace_minutes")));
      ctx.reply.status(201);
      const until = issued.replaced.revoked_at ?? issued.replaced.expires_at;
      return {
        notice: `Rotated ${issued.replaced.prefix}… to ${issued.record.prefix}…; the old key works until ${formatStamp(until)}.`,
        newKey: issued.key,
      };
    }),
  );
  routes.form("/keys/revoke", "signed-in", (ctx, body) =>
    attempt(ctx, show, async () => {
      const keyId = await ownedKey(ctx, field(body, "key_id"));
      if (!(await ctx.deps.accounts.revokeKey(keyId))) throw new ApiError("not_found", "That key is revoked already.");
      return { notice: "Revoked: the key answers 401 from now on." };
    }),
  );
}

async function show(ctx: Ctx, state: KeysState): Promise<Page> {
  const operator = isOperator(ctx);
  const keys = await ctx.deps.accounts.listKeys(operator ? undefined : ctx.viewer.tenant?.name);
  const tenants = operator ? await ctx.deps.accounts.listTenants() : [];
  const now = toStamp(ctx.deps.clock.now());
  const csrf = csrfField(ctx.viewer);
  const status = (k: (typeof keys)[number]): string =>
    k.revoked_at ? "revoked" : k.expires_at !== null && k.expires_at <= now ? "expired" : "active";
  return {
    title: "Keys",
    current: "Keys",
    body: html`${message("error", state.error)}${message("notice", state.notice)}
      ${shownOnce(
        "new-key",
        "New key",
        state.newKey,
        "Copy it now: it is shown this once, and only its hash is kept. Keep it on a server, never in a browser.",
      )}
      <form class="panel" method="post" action="/keys" aria-label="Issue a key">
        ${csrf}
        <h2>Issue a key</h2>
        <div class="fields">
          ${
            operator
              ? html`<div class="field">
                  <label for="key-tenant">Tenant</label>
                  <select id="key-tenant" name="tenant" required>
                    ${tenants.map((t) => html`<option>${t.name}</option>`)}
                  </select>
                </div>`
              : ""
          }
          <div class="field">
            <label for="ttl-hours">Expires in (hours)</label>
            <input
              id="ttl-hours"
              type="number"
              name="ttl_hours"
              min="0"
              max="${MAX_TTL_HOURS}"
              step="any"
              inputmode="decimal"
              aria-describedby="ttl-hint"
            />
            <small id="ttl-hint">Empty: no expiry; at most ${MAX_TTL_HOURS}.</small>
          </div>
          <button type="submit">Create key</button>
        </div>
      </form>
      <table>
        <caption class="hint">
          Every key of a tenant shares its plan and credits.
        </caption>
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            ${operator ? html`<th scope="col">Tenant</th>` : ""}
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          ${keys.map(
            (k) =>
              html`<tr>
                <th scope="row"><code>${k.prefix}…</code></th>
                ${operator ? html`<td>${k.tenant}</td>` : ""}
                <td>${formatStamp(k.created_at)}</td>
                <td>${k.last_used_at ? formatStamp(k.last_used_at) : "never"}</td>
                <td>${k.expires_at ? formatStamp(k.expires_at) : "no expiry"}</td>
                <td class="status-${status(k)}">${status(k)}</td>
                <td>
                  ${
                    status(k) === "active"
                      ? html`<form method="post" action="/keys/rotate">
                            ${csrf}<input type="hidden" name="key_id" value="${k.key_id}" />
                            <label for="grace-${k.key_id}">Grace (minutes)</label>
                            <input
                              id="grace-${k.key_id}"
                              type="number"
                              name="grace_minutes"
                              min="0"
                              max="${MAX_GRACE_MINUTES}"
                              step="1"
                              value="${DEFAULT_GRACE_MINUTES}"
                            />
                            <button type="submit" class="plain">Rotate</button>
                          </form>
                          <form method="post" action="/keys/revoke">
                            ${csrf}<input type="hidden" name="key_id" value="${k.key_id}" />
                            <button type="submit" class="danger">Revoke</button>
                          </form>`
                      : "—"
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`,
  };
}

/** The key id if the viewer may act on it: the operator any, a tenant user only its tenant's. */
async function ownedKey(ctx: Ctx, keyId: string): Promise<string> {
  const keys = await ctx.deps.accounts.listKeys(isOperator(ctx) ? undefined : ctx.viewer.tenant?.name);
  if (!keyId || !keys.some((k) => k.key_id === keyId)) throw new ApiError("not_found", "No such key among yours.");
  return keyId;
}

function ttlHours(value: string): number | undefined {
  if (value === "") return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new ApiError("invalid_parameter", `Expires in (hours) is a number; got '${value}'.`);
  return n;
}

function graceMinutes(value: string): number {
  if (value === "") return DEFAULT_GRACE_MINUTES;
  return Number(value);
}
