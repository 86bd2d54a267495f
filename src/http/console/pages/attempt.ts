import { ApiError } from "../../../shared/api-error.js";
import type { Ctx, FormState, Render } from "../console-context.js";
import type { Page } from "../layout.js";

/** Runs a form's work and shows its page with the outcome; a refusal is shown on the same page, with its status. */
export async function attempt<S extends FormState>(ctx: Ctx, show: Render<S>, work: () => Promise<S>): Promise<Page> {
  try {
    return await show(ctx, await work());
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.reply.status(error.status);
    return show(ctx, { error: error.detail } as S);
  }
}
