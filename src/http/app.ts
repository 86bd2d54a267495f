import { readFileSync } from "node:fs";
import { join } from "node:path";
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from "fastify";
import { isStreamedBody, type Operation, type OperationDeps } from "../app/operation.js";
import { streamedPayload } from "./streamed-payload.js";
import { admitFreeRequest, runOperation } from "../app/run-operation.js";
import { ApiError } from "../shared/api-error.js";
import type { Logger } from "../shared/logger.js";
import { presentedKey } from "./reply/api-key.js";
import { restBodyTooLarge, sendApiError, useErrorReplies } from "./reply/error-reply.js";
import { registerAdminRoutes } from "./admin-routes.js";
import { buildOpenApi } from "./openapi.js";
import { redactedUrl } from "./request-log.js";
import { feedGapsSection } from "../usecases/feed/feed-gaps-doc.js";
import { registerMcp } from "./mcp/register-mcp.js";
import { malformedPath, MAX_HEAD_BYTES, replyClientError, replyRefused, unknownRoute } from "./refusals.js";

// The REST door. Routes are generated from the operations registry and served
// both unprefixed and under /v1 (the version prefix; see /docs/changelog.md).
// Also the server root: it mounts the MCP door on the same server, the one
// import of mcp/ that http/ has (.dependency-cruiser.cjs).

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
    // Long ids are refused by their parameter's maxLength with a spec body, not by the router (default 100).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_HEAD_BYTES },
    frameworkErrors: (_error, request, reply) => replyRefused(request, reply, malformedPath(request), deps),
    clientErrorHandler: replyClientError,
    // A call that reaches a closing server (sent on a connection it already had, e.g. pipelined behind a long
    // answer) is answered as usual, then the connection closed: draining answers what arrived, never Fastify's
    // own 503 body, which is not the contract's.
    return503OnClosing: false,
  });

  app.addHook("onResponse", async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: redactedUrl(request.url, options.adminToken ? [options.adminToken] : []),
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      "request",
    );
  });

  const publicFiles = loadPublicFiles(options.docsDir, buildOpenApi(operations));
  const keyedDocs = loadDocs(options.docsDir, KEYED_DOCS);
  for (const prefix of VERSION_PREFIXES) {
    for (const [path, file] of publicFiles) {
      // The completeness page ends with the live feed's holes, read from the ledger at each request.
      const live = path === "/docs/completeness.md";
      app.get(prefix + path, async (_request, reply) =>
        reply.type(file.type).send(live ? file.body + (await feedGapsSection(deps.feedLedger, deps.clock.now())) : file.body),
      );
    }
    for (const [path, file] of keyedDocs) {
      app.get(prefix + path, async (request, reply) => {
        const admitted = await admitFreeRequest(presentedKey(request.headers), deps);
        if (!admitted.ok) return sendApiError(reply, admitted.error, admitted.headers);
        return reply.headers(admitted.headers).type(file.type).send(file.body);
      });
    }
    for (const operation of operations) {
      app.route({
        method: operation.method,
        url: prefix + fastifyPath(operation.path),
        handler: (request, reply) => handle(operation, request, reply, deps, operations),
      });
    }
  }

  await registerMcp(app, { operations, deps });

  if (options.adminToken) registerAdminRoutes(app, { token: options.adminToken, accounts: deps.accounts, credits: deps.credits });

  // Every path that is not public answers 401 without a valid key, even one that does not exist.
  app.setNotFoundHandler((request, reply) => replyRefused(request, reply, unknownRoute(request, operations), deps));

  useErrorReplies(app, { bodyTooLarge: restBodyTooLarge, deps });

  return app;
}

async function handle(
  operation: Operation,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: OperationDeps,
  served: readonly Operation[],
): Promise<FastifyReply> {
  const query = { ...(request.query as Record<string, unknown>) };
  const pathValues = request.params as Record<string, string>;
  for (const name of operation.pathParams) {
    if (name in query) {
      return replyRefused(
        request,
        reply,
        new ApiError("unknown_parameter", `'${name}' is part of the path of ${operation.path}, not a query parameter.`, {
          parameter: name,
        }),
        deps,
      );
    }
    query[name] = pathValues[name];
  }
  const body = operation.body === undefined ? undefined : request.body;
  const outcome = await runOperation(
    operation,
    { key: presentedKey(request.headers), params: query, form: "query", body, served },
    deps,
  );
  if (!outcome.ok) return sendApiError(reply, outcome.error, outcome.headers);
  if (isStreamedBody(outcome.body)) {
    // Charged before the first line (the headers carry it); the stream is read as the client takes it.
    const body = streamedPayload(outcome.body, reply.raw);
    return reply.status(200).headers(outcome.headers).type("application/x-ndjson").send(body);
  }
  // A preview (estimate=true) creates nothing: 200 even where the call itself answers 201.
  const status = outcome.body.estimate === true ? 200 : operation.status;
  return reply.status(status).headers(outcome.headers).type("application/json; charset=utf-8").send(outcome.body);
}

/** `/doc/{id}` to Fastify's `/doc/:id`. */
function fastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

interface PublicFile {
  type: string;
  body: string;
}

/** The spec's key-free documents (section 1); with /openapi.json and /mcp/tools.json, the only paths served without a key. */
const PUBLIC_DOCS = ["search-recipes.md", "agent-workflow.md", "completeness.md", "changelog.md"];

/**
 * The reference a client needs past its first call, served to a key (free, a
 * message token, like /account). docs/operators.md is for whoever runs the
 * server and is not served at all: it names settings that exist for testing.
 */
const KEYED_DOCS = ["mcp.md", "watches.md", "relationships.md", "signals-and-events.md"];

/** Key-free paths (spec section 1), read once at start. */
function loadPublicFiles(docsDir: string, openapi: unknown): Map<string, PublicFile> {
  const files = loadDocs(docsDir, PUBLIC_DOCS);
  files.set("/openapi.json", { type: "application/json; charset=utf-8", body: JSON.stringify(openapi) });
  files.set("/llms.txt", { type: "text/plain; charset=utf-8", body: readFileSync(join(docsDir, "llms.txt"), "utf8") });
  return files;
}

function loadDocs(docsDir: string, names: readonly string[]): Map<string, PublicFile> {
  const files = new Map<string, PublicFile>();
  for (const name of names) {
    files.set(`/docs/${name}`, { type: "text/markdown; charset=utf-8", body: readFileSync(join(docsDir, name), "utf8") });
  }
  return files;
}
