import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { presentedKey } from "../reply/api-key.js";
import { sendApiError, useErrorReplies } from "../reply/error-reply.js";
import type { Operation, OperationDeps } from "../../app/operation.js";
import type { Caller } from "../../usecases/accounts/account-service.js";
import { ApiError } from "../../shared/api-error.js";
import { EventStreams } from "./event-stream.js";
import { admitMessages } from "./message-tokens.js";
import { McpExchange } from "./exchange.js";
import { McpEndpoint } from "./mcp-endpoint.js";
import { checkOrigin } from "./origin-check.js";
import { SessionMeter, type SessionRef } from "./session-meter.js";
import { buildToolCatalog } from "./tool-catalog.js";

// The MCP door (spec: "MCP endpoint: POST /mcp"): POST carries JSON-RPC, GET
// opens the event stream, DELETE ends a session; /mcp/tools.json serves the
// tool schemas key-free. Before any JSON-RPC is read, a browser Origin that is
// not local is refused (origin-check.ts) and the key is checked: a missing or
// invalid key is 401 with our JSON body and no session opens. Suspension is
// not checked here: a suspended tenant still initializes and lists tools, and
// its refusal arrives on the call that costs something.

export interface McpOptions {
  operations: readonly Operation[];
  deps: OperationDeps;
}

/** A POST body larger than this is 413; tool arguments are small. */
export const MCP_MAX_BODY_BYTES = 256 * 1024;

/** The spec's one 413: an MCP body too large. */
function mcpBodyTooLarge(): ApiError {
  return new ApiError(
    "payload_too_large",
    `The request body is larger than ${MCP_MAX_BODY_BYTES / 1024} KB, the most /mcp reads. Do not retry it as is.`,
  );
}

/** Served unprefixed and under /v1, like every REST path. */
const PREFIXES = ["", "/v1"];

/** A session id we accept as a label: visible ASCII, bounded. */
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;

export async function registerMcp(app: FastifyInstance, options: McpOptions): Promise<void> {
  const { deps } = options;
  const catalog = buildToolCatalog(options.operations);
  const sessions = new SessionMeter(deps.clock);
  const streams = new EventStreams();
  const endpoint = new McpEndpoint({ catalog, deps, sessions, log: app.log });
  const callers = new WeakMap<FastifyRequest, Caller>();

  app.addHook("preClose", async () => streams.closeAll());
  app.addHook("onClose", async () => endpoint.close());

  const toolsJson = JSON.stringify({ tools: catalog.tools });
  for (const prefix of PREFIXES) {
    app.get(`${prefix}/mcp/tools.json`, async (_request, reply) => reply.type("application/json; charset=utf-8").send(toolsJson));
  }

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      callers.set(request, await deps.accounts.identify(presentedKey(request.headers)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      await sendApiError(reply, error);
    }
  }

  function exchangeFor(request: FastifyRequest): McpExchange {
    const caller = callers.get(request);
    const key = presentedKey(request.headers);
    if (caller === undefined || key === undefined) throw new Error("MCP request past the key check without a caller");
    return new McpExchange(key, caller, sessionOf(request, caller));
  }

  // Not awaited: awaiting a registration loads Fastify's pending routes at once, with whatever error handler
  // the app has at that moment, before buildApp sets its own.
  void app.register(async (scope) => {
    // The SDK reads the raw body itself (and answers bad JSON or a wrong media type per the transport spec).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: MCP_MAX_BODY_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    useErrorReplies(scope, { bodyTooLarge: mcpBodyTooLarge });
    for (const prefix of PREFIXES) {
      scope.route({
        method: ["POST", "GET", "DELETE"],
        url: `${prefix}/mcp`,
        onRequest: [checkOrigin, authenticate],
        handler: async (request, reply) => {
          const exchange = exchangeFor(request);
          if (request.method === "POST") return endpoint.post(request, reply, exchange);
          // Opening the event stream and ending a session are messages too (message-tokens.ts).
          await admitMessages(1, exchange.caller, deps);
          if (request.method === "GET") return streams.serve(request, reply);
          sessions.end(exchange.session);
          return reply.status(204).send();
        },
      });
    }
  });
}

function sessionOf(request: FastifyRequest, caller: Caller): SessionRef {
  const header = request.headers["mcp-session-id"];
  const id = Array.isArray(header) ? header[0] : header;
  return { keyId: caller.key.key_id, sessionId: id !== undefined && SESSION_ID.test(id) ? id : undefined };
}
