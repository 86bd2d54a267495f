import { ApiError } from "../../../shared/api-error.js";
import { MIN_PASSWORD_LENGTH } from "../../../usecases/console/console-users.js";
import type { ConsoleRoutes } from "../console-app.js";
import { isOperator, type Ctx, type FormState } from "../console-context.js";
import { html } from "../html.js";
import { csrfField, message, type Page } from "../layout.js";
import { attempt } from "./attempt.js";

// A tenant user replaces the one-time password the operator gave them.

export function registerPassword(routes: ConsoleRoutes): void {
  routes.page("/password", "signed-in", (ctx) => show(ctx, {}));
  routes.form("/password", "signed-in", (ctx, body) =>
    attempt(ctx, show, async () => {
      if (isOperator(ctx)) throw new ApiError("invalid_parameter", "The operator signs in with the operator token.");
      const fields = body as Record<string, unknown>;
      const text = (name: string): string => (typeof fields[name] === "string" ? (fields[name] as string) : "");
      await ctx.deps.console.users.changePassword(ctx.viewer.email ?? "", text("current"), text("next"));
      return { notice: "Password changed: sign in with it from now on." };
    }),
  );
}

async function show(ctx: Ctx, state: FormState): Promise<Page> {
  if (isOperator(ctx)) {
    return {
      title: "Password",
      body: html`${message("error", state.error)}
        <p>The operator signs in with the operator token.</p>`,
    };
  }
  return {
    title: "Password",
    body: html`${message("error", state.error)}${message("notice", state.notice)}
      <form class="panel" method="post" action="/password" aria-label="Change password">
        ${csrfField(ctx.viewer)}
        <div class="fields">
          <div class="field">
            <label for="current-password">Current password</label>
            <input id="current-password" type="password" name="current" autocomplete="current-password" required />
          </div>
          <div class="field">
            <label for="new-password">New password</label>
            <input
              id="new-password"
              type="password"
              name="next"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              required
              aria-describedby="new-password-hint"
            />
            <small id="new-password-hint">At least ${MIN_PASSWORD_LENGTH} characters.</small>
          </div>
          <button type="submit">Change password</button>
        </div>
      </form>`,
  };
}
