import { ApiError } from "../../../shared/api-error.js";
import type { ConsoleRoutes } from "../console-app.js";
import { field, isOperator, queryField, tenantInView, type Ctx, type FormState } from "../console-context.js";
import { formatStamp, safeLink } from "../format.js";
import { html } from "../html.js";
import { csrfField, message, type Page } from "../layout.js";
import { tenantCaller } from "./tenant-caller.js";
import { tenantPicker } from "./tenant-picker.js";

// Watches: the tenant's saved /stories queries, their status and latest
// events, with delete. Read from the watch service directly: looking after an
// account in the console is not an API call and is not charged.

/** Events shown under each watch. */
const RECENT_EVENTS = 5;

export function registerWatches(routes: ConsoleRoutes): void {
  routes.page("/watches", "signed-in", (ctx) => show(ctx, {}, queryField(ctx.request, "tenant")));
  routes.form("/watches/delete", "signed-in", async (ctx, body) => {
    const tenantName = isOperator(ctx) ? field(body, "tenant") : undefined;
    try {
      const tenant = await tenantInView(ctx, tenantName);
      const watches = ctx.deps.watches;
      if (!tenant || !watches) throw new ApiError("not_found", "No such watch.");
      const deleted = await watches.remove(tenantCaller(ctx, tenant), field(body, "watch_id"));
      return await show(ctx, { notice: `Deleted watch ${deleted.id}; its events are gone with it.` }, tenantName);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      ctx.reply.status(error.status);
      return show(ctx, { error: error.detail }, tenantName);
    }
  });
}

async function show(ctx: Ctx, state: FormState, tenantName: string | undefined): Promise<Page> {
  const tenant = await tenantInView(ctx, tenantName);
  const picker = await tenantPicker(ctx, "/watches", tenant);
  const head = html`${message("error", state.error)}${message("notice", state.notice)}${picker}`;
  const watches = ctx.deps.watches;
  if (!watches) {
    return {
      title: "Watches",
      current: "Watches",
      body: html`${head}
        <p>Watches are off on this server (NEWSINDEX_WATCHES=off).</p>`,
    };
  }
  if (!tenant)
    return {
      title: "Watches",
      current: "Watches",
      body: html`${head}
        <p>No tenant yet.</p>`,
    };
  const caller = tenantCaller(ctx, tenant);
  const list = await watches.list(caller);
  const withEvents = await Promise.all(
    list.watches.map(async (watch) => ({
      watch,
      events: (await watches.events(caller, watch.id, undefined, RECENT_EVENTS)).events,
    })),
  );
  const csrf = csrfField(ctx.viewer);
  return {
    title: "Watches",
    current: "Watches",
    body: html`${head}
      <p>
        ${list.count} of ${list.limit} watches on plan ${tenant.plan}. Create them with <code>POST /watches</code> and a key (see
        /docs/watches.md).
      </p>
      ${withEvents.map(
        ({ watch, events }) =>
          html`<section class="panel" aria-labelledby="watch-${watch.id}">
            <h2 id="watch-${watch.id}">${watch.label || watch.id}</h2>
            <dl class="figures">
              <dt>Status</dt>
              <dd>${watch.status}</dd>
              <dt>Query</dt>
              <dd><code>${queryText(watch.query)}</code></dd>
              <dt>Every</dt>
              <dd>
                ${watch.interval_minutes} minutes; last run ${formatStamp(watch.last_run_at)}, next
                ${formatStamp(watch.next_run_at)}
              </dd>
              <dt>Webhook</dt>
              <dd>${watch.webhook_url ?? "none"}</dd>
            </dl>
            <h3>Recent events</h3>
            ${
              events.length === 0
                ? html`<p class="hint">No events recorded in the last seven days.</p>`
                : html`<ul>
                    ${events.map((e) => {
                      const link = safeLink(e.url);
                      return html`<li>
                        ${e.kind} · ${formatStamp(e.recorded_at)} ·
                        ${link ? html`<a href="${link}" rel="noreferrer noopener" target="_blank">${e.title ?? e.story_id}</a>` : (e.title ?? e.story_id)}
                      </li>`;
                    })}
                  </ul>`
            }
            <form method="post" action="/watches/delete">
              ${csrf}<input type="hidden" name="watch_id" value="${watch.id}" />
              ${isOperator(ctx) ? html`<input type="hidden" name="tenant" value="${tenant.name}" />` : ""}
              <button type="submit" class="danger">Delete</button>
            </form>
          </section>`,
      )}`,
  };
}

function queryText(query: Record<string, string | string[]>): string {
  const pairs = Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]));
  return new URLSearchParams(pairs).toString();
}
