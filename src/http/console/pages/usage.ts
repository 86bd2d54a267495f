import { PLANS } from "../../../domain/plans.js";
import type { ConsoleRoutes } from "../console-app.js";
import { queryField, tenantInView, type Ctx } from "../console-context.js";
import { formatCount } from "../format.js";
import { html } from "../html.js";
import { figures, type Page } from "../layout.js";
import { tenantPicker } from "./tenant-picker.js";

// Usage: this month's credits against the plan, the figures GET /account
// reports (the same service computes both), and a chart of credits and calls
// per day by operation, from the durable per-day counters.

export function registerUsage(routes: ConsoleRoutes): void {
  routes.page("/usage", "signed-in", show);
}

async function show(ctx: Ctx): Promise<Page> {
  const tenant = await tenantInView(ctx, queryField(ctx.request, "tenant"));
  const picker = await tenantPicker(ctx, "/usage", tenant);
  if (!tenant)
    return {
      title: "Usage",
      current: "Usage",
      body: html`${picker}
        <p>No tenant yet: create one on the Tenants page.</p>`,
    };
  const plan = PLANS[tenant.plan];
  const account = await ctx.deps.credits.account({ tenant, plan });
  const usage = await ctx.deps.console.usage.month(tenant.id, ctx.deps.clock.now());
  const limit = account.credits_limit > 0 ? formatCount(account.credits_limit) : "unlimited";
  const days = Math.round(account.credits_reset_secs / 86_400);
  return {
    title: "Usage",
    current: "Usage",
    body: html`${picker}
      <section class="panel" aria-labelledby="figures-title">
        <h2 id="figures-title">Tenant ${tenant.name}, plan ${tenant.plan}, this month (UTC)</h2>
        ${figures("This month's credits, as GET /account reports them", [
          { label: "Credits used", value: formatCount(account.credits_used), id: "credits-used" },
          {
            label: "Monthly limit",
            value: `${limit}${account.hard_cap ? " (hard cap)" : account.metered_billing ? " (overage billed)" : ""}`,
            id: "credits-limit",
          },
          {
            label: "Credits remaining",
            value: account.credits_remaining === null ? "unlimited" : formatCount(account.credits_remaining),
            id: "credits-remaining",
          },
          {
            label: "Per-minute rate",
            value: `${formatCount(account.credits_per_minute)} credits a minute`,
            id: "credits-per-minute",
          },
          { label: "Renews", value: `in ${days} days, at the start of the next UTC month` },
        ])}
      </section>
      <h2>Credits per day, by operation</h2>
      <figure class="chart">
        <div id="credits-chart"></div>
        <figcaption class="hint">${formatCount(usage.total_credits)} credits this month in the per-day counters.</figcaption>
      </figure>
      <h2>Calls per day, by operation</h2>
      <figure class="chart">
        <div id="calls-chart"></div>
        <figcaption class="hint">${formatCount(usage.total_calls)} calls this month.</figcaption>
      </figure>
      <div id="usage-data" hidden data-usage="${JSON.stringify(usage)}"></div>
      <details>
        <summary>The figures as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Operation</th>
              <th scope="col">Calls</th>
              <th scope="col">Credits</th>
            </tr>
          </thead>
          <tbody>
            ${usage.days.flatMap((day, i) =>
              usage.operations
                .filter((op) => (usage.calls[op]?.[i] ?? 0) > 0 || (usage.credits[op]?.[i] ?? 0) !== 0)
                .map(
                  (op) =>
                    html`<tr>
                      <td>${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)}</td>
                      <td>${op}</td>
                      <td>${formatCount(usage.calls[op]?.[i] ?? 0)}</td>
                      <td>${formatCount(usage.credits[op]?.[i] ?? 0)}</td>
                    </tr>`,
                ),
            )}
          </tbody>
        </table>
      </details>`,
  };
}
