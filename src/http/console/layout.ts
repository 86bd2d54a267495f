import type { Viewer } from "../../usecases/console/console-sessions.js";
import { html, type Html, type Interpolated } from "./html.js";

// The page shell: navigation by role, who is signed in, sign-out, and the
// scripts every page loads, from this origin: htmx boosts links and forms
// (only the body is swapped, so the chart's scripts load on every page). Its
// history cache is off: it would keep pages, a new key's among them, in
// sessionStorage; going back reloads from the server instead.

export interface Page {
  title: string;
  /** The navigation entry to mark as the current page. */
  current?: string;
  body: Html;
}

const OPERATOR_NAV = ["Tenants", "Keys", "Usage", "Playground", "Watches"];
const TENANT_NAV = ["Keys", "Usage", "Playground", "Watches"];

export function layout(page: Page, viewer: Viewer | undefined): Html {
  const nav = viewer === undefined ? [] : viewer.session.role === "operator" ? OPERATOR_NAV : TENANT_NAV;
  const who =
    viewer === undefined
      ? undefined
      : viewer.session.role === "operator"
        ? "Operator"
        : `${viewer.email ?? ""} · tenant ${viewer.tenant?.name ?? ""}`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta
          name="htmx-config"
          content='{"includeIndicatorStyles":false,"allowScriptTags":false,"historyCacheSize":0,"refreshOnHistoryMiss":true,"responseHandling":[{"code":"204","swap":false},{"code":"...","swap":true}]}'
        />
        <title>${page.title} · NewsIndex console</title>
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href="/assets/uPlot.min.css" />
        <link rel="stylesheet" href="/assets/console.css" />
        <script src="/assets/htmx.min.js" defer></script>
        <script src="/assets/uPlot.iife.min.js" defer></script>
        <script src="/assets/usage-chart.js" defer></script>
      </head>
      <body hx-boost="true">
        <a class="skip" href="#main">Skip to content</a>
        <header>
          <span class="brand">NewsIndex console</span>
          ${
            nav.length > 0
              ? html`<nav aria-label="Console">
                  ${nav.map(
                    (name) =>
                      html`<a href="/${name.toLowerCase()}" ${page.current === name ? html`aria-current="page"` : ""}
                        >${name}</a
                      >`,
                  )}
                </nav>`
              : ""
          }
          ${
            viewer
              ? html`<span class="who">${who}</span>
                  ${viewer.session.role === "tenant" ? html`<a href="/password">Change password</a>` : ""}
                  <form method="post" action="/sign-out">
                    <input type="hidden" name="_csrf" value="${viewer.session.csrf_token}" /><button type="submit">
                      Sign out
                    </button>
                  </form>`
              : ""
          }
        </header>
        <main id="main">
          <h1>${page.title}</h1>
          ${page.body}
        </main>
      </body>
    </html>`;
}

/** A message at the top of a page: an error (role alert) or a notice (role status). */
export function message(kind: "error" | "notice", text: string | undefined): Html {
  if (!text) return html``;
  return kind === "error"
    ? html`<div class="alert" role="alert">${text}</div>`
    : html`<div class="notice" role="status">${text}</div>`;
}

/** The hidden field every state-changing form carries. */
export function csrfField(viewer: Viewer): Html {
  return html`<input type="hidden" name="_csrf" value="${viewer.session.csrf_token}" />`;
}

export interface Figure {
  label: string;
  value: Interpolated;
  /** For a figure tests and scripts read. */
  id?: string;
}

/** Named figures as a two-column table: each value's row header is its name, read with it by assistive technology. */
export function figures(caption: string, rows: readonly Figure[]): Html {
  return html`<table class="figures">
    <caption class="hint">
      ${caption}
    </caption>
    <tbody>
      ${rows.map(
        (r) =>
          html`<tr>
            <th scope="row">${r.label}</th>
            <td ${r.id ? html`id="${r.id}"` : ""}>${r.value}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/**
 * A secret shown this once (a new key, a one-time password) in a read-only
 * field: kept out of htmx's history snapshots, so no browser storage holds it.
 */
export function shownOnce(id: string, label: string, value: string | undefined, note: string): Html {
  if (value === undefined) return html``;
  return html`<section class="panel" hx-history="false">
    <label for="${id}">${label}</label>
    <input id="${id}" class="secret" type="text" readonly value="${value}" autocomplete="off" />
    <p class="hint">${note}</p>
  </section>`;
}
