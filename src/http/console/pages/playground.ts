import { runOperationFor, type CallOutcome } from "../../../app/run-operation.js";
import type { Tenant } from "../../../ports/control-store.js";
import { ApiError } from "../../../shared/api-error.js";
import type { ConsoleRoutes } from "../console-app.js";
import { field, isOperator, queryField, tenantInView, type Ctx, type FormState } from "../console-context.js";
import { formatCount, formatStamp, safeLink } from "../format.js";
import { html, type Html } from "../html.js";
import { csrfField, figures, message, type Figure, type Page } from "../layout.js";
import { tenantCaller } from "./tenant-caller.js";
import { fieldControl, playgroundFields, playgroundOperations } from "./playground-form.js";

// The playground: GET /search or GET /stories run server-side for the tenant
// in view, through the same metered path as a keyed call (validation, price,
// budgets, charge, usage counters), with the equivalent curl line. No key is
// involved: the browser never holds one.

interface PlaygroundState extends FormState {
  values?: Record<string, string>;
  path?: string;
  outcome?: CallOutcome;
  curl?: string;
}

export function registerPlayground(routes: ConsoleRoutes): void {
  routes.page("/playground", "signed-in", (ctx) => show(ctx, {}));
  routes.form("/playground", "signed-in", async (ctx, body) => {
    const runs = playgroundOperations(ctx.options.operations);
    const operation = runs.find((op) => op.path === field(body, "endpoint")) ?? runs[0];
    const values: Record<string, string> = {};
    for (const f of playgroundFields(ctx.options.operations)) {
      const value = field(body, f.name);
      if (value !== "") values[f.name] = value;
    }
    try {
      const tenant = await tenantInView(ctx, isOperator(ctx) ? field(body, "tenant") : undefined);
      if (!operation || !tenant) throw new ApiError("invalid_parameter", "There is no tenant to run the call for yet.");
      const outcome = await runOperationFor(operation, tenantCaller(ctx, tenant), { params: values, form: "query" }, ctx.deps);
      const query = new URLSearchParams(values).toString();
      const curl = `curl -s -H "x-api-key: $KEY" "${ctx.options.apiUrl}${operation.path}${query ? `?${query}` : ""}"`;
      return await show(ctx, { values, path: operation.path, outcome, curl }, tenant);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.reply.status(error.status);
      return show(ctx, { values, error: error.detail });
    }
  });
}

async function show(ctx: Ctx, state: PlaygroundState, ran?: Tenant): Promise<Page> {
  const operator = isOperator(ctx);
  const tenant = ran ?? (await tenantNamed(ctx, queryField(ctx.request, "tenant")));
  const tenants = operator ? await ctx.deps.accounts.listTenants() : [];
  const values = state.values ?? {};
  const fields = playgroundFields(ctx.options.operations);
  const runs = playgroundOperations(ctx.options.operations);
  return {
    title: "Playground",
    current: "Playground",
    body: html`<form
        class="panel"
        method="post"
        action="/playground"
        aria-label="Run a call"
        hx-post="/playground"
        hx-target="#run"
        hx-select="#run"
        hx-swap="outerHTML"
      >
        ${csrfField(ctx.viewer)}
        <div class="fields">
          ${
            operator
              ? html`<div class="field">
                  <label for="run-tenant">Tenant</label>
                  <select id="run-tenant" name="tenant">
                    ${tenants.map((t) => html`<option ${t.id === tenant?.id ? html`selected` : ""}>${t.name}</option>`)}
                  </select>
                </div>`
              : ""
          }
          <div class="field">
            <label for="run-endpoint">Endpoint</label>
            <select id="run-endpoint" name="endpoint">
              ${runs.map(
                (op) =>
                  html`<option value="${op.path}" ${op.path === state.path ? html`selected` : ""}>
                    ${op.method} ${op.path}
                  </option>`,
              )}
            </select>
          </div>
        </div>
        <div class="fields">${fields.map((f) => fieldControl(f, values[f.name]))}</div>
        <p>
          <button type="submit">Run</button>
          <span class="hint"
            >Charged like any call with a key of ${operator ? "the chosen tenant" : "your tenant"}; the price is the API's.</span
          >
        </p>
      </form>
      ${runSection(state)}`,
  };
}

/** The tenant in view; an unknown name asked in the address shows the form for the first tenant instead. */
async function tenantNamed(ctx: Ctx, name: string | undefined): Promise<Tenant | undefined> {
  try {
    return await tenantInView(ctx, name);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not_found") return tenantInView(ctx, undefined);
    throw error;
  }
}

function runSection(state: PlaygroundState): Html {
  const { outcome } = state;
  if (!outcome) return html`<section id="run" aria-live="polite">${message("error", state.error)}</section>`;
  const charged: Figure = { label: "Credits charged", value: outcome.credits_charged, id: "credits-charged" };
  if (!outcome.ok) {
    return html`<section id="run" aria-live="polite">
      <h2>Result</h2>
      <div class="alert" role="alert">
        <strong>${outcome.error.code}</strong> (${outcome.error.status}): ${outcome.error.detail}
      </div>
      ${figures("The call", [charged])} ${curlBlock(state.curl)}
    </section>`;
  }
  const body = outcome.body;
  const items = (Array.isArray(body.results) ? body.results : Array.isArray(body.stories) ? body.stories : []) as Array<
    Record<string, unknown>
  >;
  return html`<section id="run" aria-live="polite">
    <h2>Result</h2>
    ${figures("The call", [
      charged,
      { label: "Total", value: `${formatCount(Number(body.total ?? 0))} (${String(body.total_relation ?? "")})`, id: "total" },
      { label: "Coverage", value: String(body.coverage ?? ""), id: "coverage" },
      { label: "Partial", value: body.partial === true ? "yes: part of the index could not be read" : "no", id: "partial" },
    ])}
    ${curlBlock(state.curl)}
    <ol class="results">
      ${items.map((item) => resultItem(item))}
    </ol>
  </section>`;
}

function resultItem(item: Record<string, unknown>): Html {
  const title = typeof item.title === "string" && item.title ? item.title : "(no headline)";
  const link = safeLink(typeof item.url === "string" ? item.url : undefined);
  const when =
    typeof item.published_at === "string" ? item.published_at : typeof item.last_seen === "string" ? item.last_seen : null;
  const source =
    typeof item.source === "string"
      ? item.source
      : typeof item.outlets === "number"
        ? `${item.count ?? "?"} articles, ${item.outlets} outlets`
        : "";
  return html`<li>
    ${link ? html`<a href="${link}" rel="noreferrer noopener" target="_blank">${title}</a>` : title}
    <div class="meta">${source} · ${formatStamp(when)}</div>
  </li>`;
}

function curlBlock(curl: string | undefined): Html {
  if (!curl) return html``;
  return html`<h3>The same call with a key</h3>
    <pre><code id="curl">${curl}</code></pre>`;
}
