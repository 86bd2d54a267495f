import type { Tenant } from "../../../ports/control-store.js";
import { isOperator, type Ctx } from "../console-context.js";
import { html, type Html } from "../html.js";

/** The operator's choice of tenant on a page about one tenant (a GET form); nothing for a tenant user. */
export async function tenantPicker(ctx: Ctx, action: string, selected: Tenant | undefined): Promise<Html> {
  if (!isOperator(ctx)) return html``;
  const tenants = await ctx.deps.accounts.listTenants();
  return html`<form class="panel" method="get" action="${action}" aria-label="Choose a tenant">
    <div class="fields">
      <div class="field">
        <label for="view-tenant">Tenant</label>
        <select id="view-tenant" name="tenant">
          ${tenants.map((t) => html`<option ${t.id === selected?.id ? html`selected` : ""}>${t.name}</option>`)}
        </select>
      </div>
      <button type="submit" class="plain">Show</button>
    </div>
  </form>`;
}
