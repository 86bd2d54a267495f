import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../../../shared/api-error.js";
import type { SignedIn, Viewer } from "../../../usecases/console/console-sessions.js";
import { SESSION_HOURS } from "../../../usecases/console/console-sessions.js";
import { SESSION_COOKIE, sendPage } from "../respond.js";
import { field, type ConsoleOptions } from "../console-context.js";
import { html } from "../html.js";
import { message, type Page } from "../layout.js";

// Sign-in: tenant users with email and password, the operator with the
// operator token (a page of its own). A session cookie, httpOnly and
// SameSite=Strict (Secure behind https), is all the browser keeps.

export function registerSignIn(
  app: FastifyInstance,
  options: ConsoleOptions,
  viewerOf: (request: FastifyRequest) => Promise<Viewer | undefined>,
): void {
  const { sessions } = options.deps.console;
  app.get("/sign-in", async (request, reply) => sendPage(reply, userForm(undefined), await viewerOf(request)));
  app.get("/sign-in/operator", async (request, reply) =>
    sendPage(reply, operatorForm(undefined, options), await viewerOf(request)),
  );

  app.post("/sign-in", async (request, reply) => {
    try {
      const signed = await sessions.signInUser(field(request.body, "email"), rawField(request.body, "password"));
      return signedIn(request, reply, signed, "/usage");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return sendPage(refused(reply, error), userForm(error.detail));
    }
  });

  app.post("/sign-in/operator", async (request, reply) => {
    try {
      if (options.operatorToken === undefined) throw new ApiError("unauthorized", "No operator token is set on this server.");
      const signed = await sessions.signInOperator(rawField(request.body, "token"), options.operatorToken);
      return signedIn(request, reply, signed, "/tenants");
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return sendPage(refused(reply, error), operatorForm(error.detail, options));
    }
  });

  app.post("/sign-out", async (request, reply) => {
    const viewer = await viewerOf(request);
    // Signing out needs the session's own token: another site cannot end it either.
    if (viewer && field(request.body, "_csrf") === viewer.session.csrf_token) {
      await sessions.signOut(request.cookies[SESSION_COOKIE]);
    }
    return reply.clearCookie(SESSION_COOKIE, { path: "/" }).redirect("/sign-in", 303);
  });
}

function signedIn(request: FastifyRequest, reply: FastifyReply, signed: SignedIn, to: string): FastifyReply {
  return reply
    .setCookie(SESSION_COOKIE, signed.cookie, {
      path: "/",
      httpOnly: true,
      sameSite: "strict",
      secure: request.protocol === "https",
      maxAge: SESSION_HOURS * 3600,
    })
    .redirect(to, 303);
}

/** A refused sign-in's status, and when to try again after too many. */
function refused(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.retryAfterSecs !== undefined) reply.header("retry-after", String(error.retryAfterSecs));
  return reply.status(error.status);
}

/** A secret as typed: not trimmed. */
function rawField(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : "";
}

function userForm(error: string | undefined): Page {
  return {
    title: "Sign in",
    body: html`${message("error", error)}
      <form class="panel" method="post" action="/sign-in">
        <div class="fields">
          <div class="field">
            <label for="email">Email</label><input id="email" type="email" name="email" autocomplete="username" required />
          </div>
          <div class="field">
            <label for="password">Password</label
            ><input id="password" type="password" name="password" autocomplete="current-password" required />
          </div>
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p>Operator? <a href="/sign-in/operator">Sign in with the operator token</a>.</p>`,
  };
}

function operatorForm(error: string | undefined, options: ConsoleOptions): Page {
  return {
    title: "Operator sign-in",
    body: html`${message("error", error)}
      ${options.operatorToken === undefined ? html`<p role="alert">No operator token is set on this server (NEWSINDEX_ADMIN_TOKEN).</p>` : ""}
      <form class="panel" method="post" action="/sign-in/operator">
        <div class="fields">
          <div class="field">
            <label for="token">Operator token</label><input id="token" type="password" name="token" autocomplete="off" required />
          </div>
          <button type="submit">Sign in</button>
        </div>
      </form>
      <p>A tenant user? <a href="/sign-in">Sign in with email and password</a>.</p>`,
  };
}
