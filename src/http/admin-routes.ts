import { createHash, timingSafeEqual } from "node:crypto";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { PLAN_IDS, PLANS } from "../domain/plans.js";
import { MAX_GRACE_MINUTES, MAX_TTL_HOURS, type AccountService } from "../usecases/accounts/account-service.js";
import type { CreditService } from "../usecases/accounts/credit-service.js";
import { ApiError } from "../shared/api-error.js";
import { restBodyTooLarge, sendApiError, useErrorReplies } from "./reply/error-reply.js";

// The operator API, for the console: tenants, plans, suspension and keys.
// Guarded by the operator token (NEWSINDEX_ADMIN_TOKEN) as a Bearer token;
// off when no token is configured. Not part of the public contract.

const Plan = Type.Union(PLAN_IDS.map((p) => Type.Literal(p)));
const CreateTenant = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }), plan: Plan },
  { additionalProperties: false },
);
const UpdateTenant = Type.Object(
  { plan: Type.Optional(Plan), suspended: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const CreateKey = Type.Object(
  {
    tenant: Type.String({ minLength: 1 }),
    plan: Type.Optional(Plan),
    ttl_hours: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: MAX_TTL_HOURS })),
  },
  { additionalProperties: false },
);
const RotateKey = Type.Object(
  { grace_minutes: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_GRACE_MINUTES })) },
  { additionalProperties: false },
);

export interface AdminOptions {
  token: string;
  accounts: AccountService;
  credits: CreditService;
}

export function registerAdminRoutes(app: FastifyInstance, options: AdminOptions): void {
  const { accounts, credits } = options;
  const expected = digest(options.token);

  app.register(
    async (admin) => {
      admin.addHook("onRequest", async (request, reply) => {
        const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? "");
        if (!match?.[1] || !timingSafeEqual(digest(match[1].trim()), expected)) {
          return sendApiError(
            reply,
            new ApiError("unauthorized", "The operator API needs Authorization: Bearer <operator token>."),
          );
        }
      });
      useErrorReplies(admin, { bodyTooLarge: restBodyTooLarge });

      admin.get("/tenants", async () => ({ tenants: await accounts.listTenants() }));
      admin.post("/tenants", async (request, reply) => {
        const body = parseBody(CreateTenant, request);
        return reply.status(201).send(await accounts.createTenant(body.name, body.plan));
      });
      admin.patch("/tenants/:name", async (request) => {
        const { name } = request.params as { name: string };
        const body = parseBody(UpdateTenant, request);
        let tenant = await accounts.tenant(name);
        if (body.plan !== undefined) tenant = await accounts.setPlan(name, body.plan);
        if (body.suspended !== undefined) tenant = await accounts.setSuspended(name, body.suspended);
        return tenant;
      });
      admin.get("/tenants/:name/account", async (request) => {
        const { name } = request.params as { name: string };
        const tenant = await accounts.tenant(name);
        const keys = await accounts.listKeys(name);
        return {
          ...(await credits.account({ tenant, plan: PLANS[tenant.plan] })),
          suspended: tenant.suspended,
          keys: keys.length,
        };
      });
      admin.get("/keys", async (request) => {
        const { tenant } = request.query as { tenant?: string };
        return { keys: await accounts.listKeys(tenant) };
      });
      admin.post("/keys", async (request, reply) => {
        const body = parseBody(CreateKey, request);
        const issued = await accounts.issueKey(body.tenant, body.plan, { ttlHours: body.ttl_hours });
        return reply
          .status(201)
          .send({ key: issued.key, ...issued.record, tenant: issued.tenant.name, plan: issued.tenant.plan });
      });
      admin.post("/keys/:keyId/rotate", async (request, reply) => {
        const { keyId } = request.params as { keyId: string };
        const body = parseBody(RotateKey, request);
        const issued = await accounts.rotateKey(keyId, body.grace_minutes ?? 15);
        return reply
          .status(201)
          .send({ key: issued.key, ...issued.record, tenant: issued.tenant.name, replaced: issued.replaced });
      });
      admin.delete("/keys/:keyId", async (request) => {
        const { keyId } = request.params as { keyId: string };
        if (!(await accounts.revokeKey(keyId))) throw new ApiError("not_found", `No live key has the id ${keyId}.`);
        return { revoked: true, key_id: keyId };
      });
    },
    { prefix: "/admin" },
  );
}

function parseBody<S extends TSchema>(schema: S, request: FastifyRequest): Static<S> {
  const body: unknown = request.body ?? {};
  if (!Value.Check(schema, body)) {
    const first = [...Value.Errors(schema, body)][0];
    throw new ApiError("invalid_parameter", `Body ${first ? `${first.path || "/"}: ${first.message}` : "is not valid"}.`);
  }
  return body;
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}
