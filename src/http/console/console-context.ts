import type { FastifyReply, FastifyRequest } from "fastify";
import type { Operation, OperationDeps } from "../../app/operation.js";
import type { Tenant } from "../../ports/control-store.js";
import { ApiError } from "../../shared/api-error.js";
import type { ConsoleServices } from "../../usecases/console/console-services.js";
import type { Viewer } from "../../usecases/console/console-sessions.js";
import type { Page } from "./layout.js";

// What every console page handler gets: who is signed in and the services.

export interface ConsoleDeps extends OperationDeps {
  console: ConsoleServices;
}

export interface ConsoleOptions {
  deps: ConsoleDeps;
  /** The endpoints the API serves: the playground's form is generated from their declarations. */
  operations: readonly Operation[];
  /** The operator's sign-in; no operator sign-in without one. */
  operatorToken: string | undefined;
  /** Behind an https proxy: the protocol from X-Forwarded-Proto, and a Secure session cookie. */
  trustProxy: boolean;
  /** The API's address, for the playground's equivalent curl line. */
  apiUrl: string;
}

export interface Ctx {
  viewer: Viewer;
  deps: ConsoleDeps;
  options: ConsoleOptions;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A page's state after a form: what to say, and a secret to show once. */
export interface FormState {
  error?: string;
  notice?: string;
}

export type Render<S extends FormState = FormState> = (ctx: Ctx, state: S) => Promise<Page>;

export function isOperator(ctx: Ctx): boolean {
  return ctx.viewer.session.role === "operator";
}

/**
 * The tenant a page is about: a tenant user's own, whatever was asked; the
 * operator's choice (`requested`), else the first tenant. Undefined when the
 * operator has no tenant yet.
 */
export async function tenantInView(ctx: Ctx, requested: string | undefined): Promise<Tenant | undefined> {
  if (!isOperator(ctx)) return ctx.viewer.tenant;
  const tenants = await ctx.deps.accounts.listTenants();
  if (requested) {
    const found = tenants.find((t) => t.name === requested);
    if (!found) throw new ApiError("not_found", `No tenant is named ${requested}.`);
    return found;
  }
  return tenants[0];
}

/** A form field as one string: the first value when repeated, empty when absent. */
export function field(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === "string" ? first.trim() : "";
}

export function queryField(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}
