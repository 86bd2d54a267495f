import { isPlanId, PLAN_IDS, PLANS, type PlanId } from "../../../domain/plans.js";
import { ApiError } from "../../../shared/api-error.js";
import type { ConsoleRoutes } from "../console-app.js";
import { field, type Ctx, type FormState } from "../console-context.js";
import { formatCount, formatStamp } from "../format.js";
import { html, type Html } from "../html.js";
import { csrfField, message, shownOnce, type Page } from "../layout.js";
import { attempt } from "./attempt.js";

// Tenants (operator only): create, change plan, suspend and resume, and the
// tenant users who sign in to the console (a one-time password shown once).

interface TenantsState extends FormState {
  password?: { email: string; value: string };
}

export function registerTenants(routes: ConsoleRoutes): void {
  routes.page("/tenants", "operator", (ctx) => show(ctx, {}));
  routes.form("/tenants", "operator", (ctx, body) =>
    attempt(ctx, show, async () => {
      const tenant = await ctx.deps.accounts.createTenant(required(body, "name", "Name"), plan(body));
      ctx.reply.status(201);
      return { notice: `Created tenant ${tenant.name} on plan ${tenant.plan}.` };
    }),
  );
  routes.form("/tenants/plan", "operator", (ctx, body) =>
    attempt(ctx, show, async () => {
      const tenant = await ctx.deps.accounts.setPlan(required(body, "tenant", "Tenant"), plan(body));
      return { notice: `Tenant ${tenant.name} is now on plan ${tenant.plan}.` };
    }),
  );
  routes.form("/tenants/suspension", "operator", (ctx, body) =>
    attempt(ctx, show, async () => {
      const suspend = field(body, "suspended") === "true";
      const tenant = await ctx.deps.accounts.setSuspended(required(body, "tenant", "Tenant"), suspend);
      return { notice: `Tenant ${tenant.name} is ${tenant.suspended ? "suspended: its keys answer 402" : "active again"}.` };
    }),
  );
  routes.form("/users", "operator", (ctx, body) =>
    attempt(ctx, show, async () => {
      const created = await ctx.deps.console.users.create(required(body, "tenant", "Tenant"), field(body, "email"));
      ctx.reply.status(201);
      return {
        notice: `Created user ${created.user.email} for tenant ${created.tenant}.`,
        password: { email: created.user.email, value: created.password },
      };
    }),
  );
}

async function show(ctx: Ctx, state: TenantsState): Promise<Page> {
  const tenants = await ctx.deps.accounts.listTenants();
  const users = await ctx.deps.console.users.list();
  const csrf = csrfField(ctx.viewer);
  return {
    title: "Tenants",
    current: "Tenants",
    body: html`${message("error", state.error)}${message("notice", state.notice)}
      ${shownOnce(
        "one-time-password",
        "One-time password",
        state.password?.value,
        `Give it to ${state.password?.email ?? ""}; it is shown this once and only its hash is kept.`,
      )}
      <form class="panel" method="post" action="/tenants" aria-label="New tenant">
        ${csrf}
        <h2>New tenant</h2>
        <div class="fields">
          <div class="field">
            <label for="tenant-name">Name</label><input id="tenant-name" name="name" required maxlength="200" />
          </div>
          <div class="field"><label for="tenant-plan">Plan</label>${planSelect(undefined, { id: "tenant-plan" })}</div>
          <button type="submit">Create tenant</button>
        </div>
      </form>
      <table>
        <caption class="hint">
          ${formatCount(tenants.length)} tenants
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Plan</th>
            <th scope="col">Status</th>
            <th scope="col">Users</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          ${tenants.map(
            (t) =>
              html`<tr>
                <th scope="row">${t.name}</th>
                <td>
                  <form method="post" action="/tenants/plan">
                    ${csrf}<input type="hidden" name="tenant" value="${t.name}" />
                    ${planSelect(t.plan, { label: `Plan of ${t.name}` })}<button type="submit" class="plain">Change plan</button>
                  </form>
                </td>
                <td>
                  ${t.suspended ? "suspended" : "active"}
                  <form method="post" action="/tenants/suspension">
                    ${csrf}<input type="hidden" name="tenant" value="${t.name}" />
                    <input type="hidden" name="suspended" value="${t.suspended ? "false" : "true"}" />
                    <button type="submit" class="${t.suspended ? "plain" : "danger"}">
                      ${t.suspended ? "Resume" : "Suspend"}
                    </button>
                  </form>
                </td>
                <td>
                  ${
                    users
                      .filter((u) => u.tenant_id === t.id)
                      .map((u) => u.email)
                      .join(", ") || "—"
                  }
                </td>
                <td>${formatStamp(t.created_at)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
      <form class="panel" method="post" action="/users" aria-label="New console user">
        ${csrf}
        <h2>New console user</h2>
        <p class="hint">A tenant user signs in with email and a one-time password shown here once; they see only their tenant.</p>
        <div class="fields">
          <div class="field">
            <label for="user-tenant">Tenant</label>
            <select id="user-tenant" name="tenant" required>
              ${tenants.map((t) => html`<option>${t.name}</option>`)}
            </select>
          </div>
          <div class="field">
            <label for="user-email">Email</label><input id="user-email" type="email" name="email" required />
          </div>
          <button type="submit">Create user</button>
        </div>
      </form>`,
  };
}

/** The plans as a select: named by a label element (`id`) or, in a table row, by `label`. */
function planSelect(selected: PlanId | undefined, name: { id?: string; label?: string }): Html {
  return html`<select name="plan" ${name.id ? html`id="${name.id}"` : ""} ${name.label ? html`aria-label="${name.label}"` : ""}>
    ${PLAN_IDS.map(
      (id) =>
        html`<option value="${id}" ${id === selected ? html`selected` : ""}>
          ${id} (${PLANS[id].credits_limit > 0 ? `${formatCount(PLANS[id].credits_limit)} credits a month` : "unlimited"})
        </option>`,
    )}
  </select>`;
}

function plan(body: unknown): PlanId {
  const value = field(body, "plan");
  if (!isPlanId(value)) throw new ApiError("invalid_parameter", `A plan is one of ${PLAN_IDS.join(", ")}; got '${value}'.`);
  return value;
}

function required(body: unknown, name: string, label: string): string {
  const value = field(body, name);
  if (!value) throw new ApiError("invalid_parameter", `${label} is required.`);
  if (value.length > 200) throw new ApiError("invalid_parameter", `${label} is at most 200 characters.`);
  return value;
}
