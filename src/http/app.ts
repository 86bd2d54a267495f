import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import type { Operation, OperationDeps } from "../operations/operation.js";
import { runOperation } from "../operations/run-operation.js";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import { presentedKey } from "./api-key.js";
import { sendApiError, sendUnexpectedError } from "./error-reply.js";
import { registerAdminRoutes } from "./admin-routes.js";
import { buildOpenApi } from "./openapi.js";
import { registerMcp } from "../mcp/register-mcp.js";

// The REST door. Routes are generated from the operations registry and served
// both unprefixed and under /v1 (the version prefix; see /docs/changelog.md).

export interface AppOptions {
  operations: readonly Operation[];
  deps: OperationDeps;
  logger: Logger;
  /** Folder of the public markdown docs and llms.txt. */
  docsDir: string;
  /** Operator token; the /admin API is served only when one is set. */
  adminToken?: string | undefined;
}

const VERSION_PREFIXES = ["", "/v1"];

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { operations, deps, logger } = options;
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // One line per request, written by the onResponse hook below, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true },
  });

  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      "request",
    );
  });

  const publicFiles = loadPublicFiles(options.docsDir, buildOpenApi(operations));
  for (const prefix of VERSION_PREFIXES) {
    for (const [path, file] of publicFiles) {
      app.get(prefix + path, async (_request, reply) => reply.type(file.type).send(file.body));
    }
    for (const operation of operations) {
      app.get(prefix + fastifyPath(operation.path), (request, reply) => handle(operation, request, reply, deps));
    }
  }

  await registerMcp(app, { operations, deps });

  if (options.adminToken) registerAdminRoutes(app, { token: options.adminToken, accounts: deps.accounts, credits: deps.credits });

  app.setNotFoundHandler(async (request, reply) => {
    // Every path that is not public answers 401 without a valid key, even one that does not exist.
    try {
      await deps.accounts.authenticate(presentedKey(request.headers));
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
    return sendApiError(
      reply,
      new ApiError("not_found", `There is no endpoint ${request.method} ${request.url.split("?")[0]}. See /openapi.json.`),
    );
  });

  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    return sendUnexpectedError(reply, error, request.log);
  });

  return app;
}

async function handle(
  operation: Operation,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: OperationDeps,
): Promise<FastifyReply> {
  const query = { ...(request.query as Record<string, unknown>) };
  const pathValues = request.params as Record<string, string>;
  for (const name of operation.pathParams) {
    if (name in query) {
      return sendApiError(
        reply,
        new ApiError("unknown_parameter", `'${name}' is part of the path of ${operation.path}, not a query parameter.`, {
          parameter: name,
        }),
      );
    }
    query[name] = pathValues[name];
  }
  const outcome = await runOperation(operation, { key: presentedKey(request.headers), params: query }, deps);
  if (!outcome.ok) return sendApiError(reply, outcome.error, outcome.headers);
  return reply.status(200).headers(outcome.headers).type("application/json; charset=utf-8").send(outcome.body);
}

/** `/doc/{id}` to Fastify's `/doc/:id`. */
function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

interface PublicFile {
  type: string;
  body: string;
}

/** Key-free paths (spec section 1), read once at start. */
function loadPublicFiles(docsDir: string, openapi: unknown): Map<string, PublicFile> {
  const files = new Map<string, PublicFile>();
  files.set("/openapi.json", { type: "application/json; charset=utf-8", body: JSON.stringify(openapi) });
  files.set("/llms.txt", { type: "text/plain; charset=utf-8", body: readFileSync(join(docsDir, "llms.txt"), "utf8") });
  for (const name of readdirSync(docsDir)) {
    if (name.endsWith(".md")) {
      files.set(`/docs/${name}`, { type: "text/markdown; charset=utf-8", body: readFileSync(join(docsDir, name), "utf8") });
    }
  }
  return files;
}
