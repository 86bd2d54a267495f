import { timingSafeEqual } from "node:crypto";
import fastifyCookie from "@fastify/cookie";
import fastifyFormbody from "@fastify/formbody";
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from "fastify";
import { ApiError } from "../../shared/api-error.js";
import type { Logger } from "../../shared/logger.js";
import type { Viewer } from "../../usecases/console/console-sessions.js";
import { loadAssets } from "./assets.js";
import type { ConsoleOptions, Ctx } from "./console-context.js";
import { html } from "./html.js";
import type { Page } from "./layout.js";
import { originOf, sendPage, SESSION_COOKIE } from "./respond.js";
import { registerSignIn } from "./pages/sign-in.js";
import { registerTenants } from "./pages/tenants.js";
import { registerKeys } from "./pages/keys.js";
import { registerUsage } from "./pages/usage.js";
import { registerPlayground } from "./pages/playground.js";
import { registerWatches } from "./pages/watches.js";
import { registerPassword } from "./pages/password.js";

// The console: a second Fastify server of the same process, on a listener of
// its own (NEWSINDEX_CONSOLE_PORT), so the API's origin keeps exactly its
// key-free paths. Server-rendered HTML, progressively enhanced with htmx; every
// script, style and chart library is served from this origin. Its handlers call
// the services in-process; no API key ever reaches the browser.

/** What a handler of a signed-in page is given, and who may call it. */
export type Role = "signed-in" | "operator";

export interface ConsoleRoutes {
  /** A page: GET, signed in (with `role`); a page's Page. */
  page(path: string, role: Role, handler: (ctx: Ctx) => Promise<Page>): void;
  /** A form: POST, signed in (with `role`), its per-session token checked; answered with a Page. */
  form(path: string, role: Role, handler: (ctx: Ctx, body: unknown) => Promise<Page>): void;
}

export async function buildConsoleApp(options: ConsoleOptions, logger: Logger): Promise<FastifyInstance> {
  const { deps } = options;
  const app = Fastify({
    loggerInstance: logger.child({ server: "console" }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.trustProxy,
    bodyLimit: 64 * 1024,
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);

  app.addHook("onRequest", async (request, reply) => {
    reply.headers({
      "content-security-policy":
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    });
    // A state-changing request from another site is refused before anything reads its body (CSRF, login CSRF).
    if (request.method === "POST" && !sameOrigin(request)) {
      return sendPage(reply.status(403), { title: "Refused", body: html`<p role="alert">This form came from another site.</p>` });
    }
  });
  app.addHook("onResponse", async (request, reply) => {
    request.log.info({ method: request.method, url: request.url, status: reply.statusCode }, "console request");
  });

  const assets = loadAssets();
  app.get("/assets/:name", async (request, reply) => {
    const asset = assets.get((request.params as { name: string }).name);
    if (!asset) return sendPage(reply.status(404), notFoundPage(), undefined);
    return reply.header("cache-control", "public, max-age=3600").type(asset.type).send(asset.body);
  });

  const viewerOf = async (request: FastifyRequest): Promise<Viewer | undefined> =>
    deps.console.sessions.find(request.cookies[SESSION_COOKIE]);

  const routes: ConsoleRoutes = {
    page(path, role, handler) {
      app.get(path, async (request, reply) => {
        const viewer = await viewerOf(request);
        if (!viewer) return reply.redirect("/sign-in", 303);
        if (role === "operator" && viewer.session.role !== "operator") return sendPage(reply.status(403), operatorOnly(), viewer);
        return sendPage(reply, await handler({ viewer, deps, options, request, reply }), viewer);
      });
    },
    form(path, role, handler) {
      app.post(path, async (request, reply) => {
        const viewer = await viewerOf(request);
        if (!viewer) return sendPage(reply.status(401), signedOut(), undefined);
        if (!tokenMatches(request.body, viewer.session.csrf_token)) {
          return sendPage(reply.status(403), staleForm(), viewer);
        }
        if (role === "operator" && viewer.session.role !== "operator") return sendPage(reply.status(403), operatorOnly(), viewer);
        return sendPage(reply, await handler({ viewer, deps, options, request, reply }, request.body), viewer);
      });
    },
  };

  app.get("/", async (request, reply) => {
    const viewer = await viewerOf(request);
    return reply.redirect(viewer === undefined ? "/sign-in" : viewer.session.role === "operator" ? "/tenants" : "/usage", 303);
  });
  registerSignIn(app, options, viewerOf);
  registerTenants(routes);
  registerKeys(routes);
  registerUsage(routes);
  registerPlayground(routes);
  registerWatches(routes);
  registerPassword(routes);

  app.setNotFoundHandler(async (request, reply) => sendPage(reply.status(404), notFoundPage(), await viewerOf(request)));
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof ApiError) {
      return sendPage(
        reply.status(error.status),
        { title: "Refused", body: html`<p role="alert">${error.detail}</p>` },
        undefined,
      );
    }
    const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) : 500;
    if (status >= 400 && status < 500) {
      return sendPage(reply.status(status), { title: "Refused", body: html`<p role="alert">The request could not be read.</p>` });
    }
    request.log.error({ err: error }, "console request failed");
    return sendPage(reply.status(500), {
      title: "Something went wrong",
      body: html`<p role="alert">The console could not answer; the error is logged.</p>`,
    });
  });
  return app;
}

/**
 * A browser names the page a POST came from in Origin (and Sec-Fetch-Site);
 * another site's is refused. A request with neither is no browser's form.
 */
function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return origin === originOf(request);
  const site = request.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

function tokenMatches(body: unknown, expected: string): boolean {
  const sent = (body as Record<string, unknown> | undefined)?._csrf;
  if (typeof sent !== "string") return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function operatorOnly(): Page {
  return {
    title: "Operator only",
    body: html`<p role="alert">This page is the operator's. Sign in with the operator token to use it.</p>`,
  };
}

function staleForm(): Page {
  return {
    title: "Refused",
    body: html`<p role="alert">
      This form is out of date or did not come from this console: nothing was changed. Reload the page and try again.
    </p>`,
  };
}

function signedOut(): Page {
  return { title: "Signed out", body: html`<p role="alert">Your session has ended. <a href="/sign-in">Sign in</a> again.</p>` };
}

function notFoundPage(): Page {
  return { title: "Not found", body: html`<p>No console page is here. <a href="/">Back to the console</a>.</p>` };
}
