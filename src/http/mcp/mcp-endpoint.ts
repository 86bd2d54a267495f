import { randomUUID } from "node:crypto";
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import type { FastifyReply, FastifyRequest } from "fastify";
import { sendApiError } from "../reply/error-reply.js";
import { ApiError } from "../../shared/api-error.js";
import { McpExchange } from "./exchange.js";
import { disconnectSignal, sendWebResponse, toWebRequest } from "./http-bridge.js";
import { createMcpServer, type McpServerContext } from "./mcp-server.js";
import { admitMessages, messageTokenCount } from "./message-tokens.js";
import { keepProtoArguments } from "./parameter-forms.js";
import { withErrorBody } from "./transport-refusal.js";

// POST /mcp. Both protocol eras are served from one server definition:
// 2026-07-28 requests (per-request `_meta` envelope) by the SDK's
// createMcpHandler; 2025-era requests (initialize handshake) by a stateless
// Streamable HTTP transport. Both run in JSON mode (no SSE on POST): our tools
// send nothing before their result, and a finished answer is what lets a tool
// call's message-rate refusal become the HTTP 429 the spec asks for.

export class McpEndpoint {
  private readonly modern: McpHttpHandler;

  constructor(private readonly context: McpServerContext) {
    this.modern = createMcpHandler((ctx) => createMcpServer(exchangeOf(ctx.authInfo), context), {
      legacy: "reject",
      // Refused requests are the client's to fix and the response says why; keep them out of error logs.
      onerror: (error) => context.log.debug({ err: error }, "MCP request refused"),
    });
  }

  async post(request: FastifyRequest, reply: FastifyReply, exchange: McpExchange): Promise<FastifyReply> {
    const text = typeof request.body === "string" ? request.body : "";
    const parsed = parseJson(text);
    keepProtoArguments(parsed);
    try {
      await admitMessages(messageTokenCount(parsed), exchange.caller, this.context.deps);
    } catch (error) {
      if (error instanceof ApiError) return sendApiError(reply, error);
      throw error;
    }
    const webRequest = toWebRequest(request, text, disconnectSignal(reply));
    const authInfo = authInfoOf(exchange);
    const legacy = await isLegacyRequest(webRequest, parsed);
    const response = await withSpecErrorBody(
      legacy
        ? await this.serveLegacy(webRequest, authInfo, parsed)
        : await this.modern.fetch(webRequest, { authInfo, parsedBody: parsed }),
    );

    const limited = exchange.rateLimit;
    if (limited !== undefined) return sendApiError(reply, limited);
    // The session label (see session-meter.ts): issued with a 2025-era handshake, echoed by the client afterwards.
    const sessionHeader: Record<string, string> =
      legacy && response.ok && isInitializeRequest(parsed) ? { "mcp-session-id": randomUUID() } : {};
    return sendWebResponse(reply, response, sessionHeader);
  }

  close(): Promise<void> {
    return this.modern.close();
  }

  private async serveLegacy(request: Request, authInfo: AuthInfo, parsedBody: unknown): Promise<Response> {
    const server = createMcpServer(exchangeOf(authInfo), this.context);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo, parsedBody });
    } finally {
      await transport.close();
      await server.close();
    }
  }
}

/** A transport refusal (bad JSON, wrong media type) carrying the spec's error body too (transport-refusal.ts). */
async function withSpecErrorBody(response: Response): Promise<Response> {
  if (response.status < 400 || response.status >= 500) return response;
  const text = await response.text();
  const replaced = withErrorBody(response.status, text);
  if (replaced === undefined) return new Response(text, { status: response.status, headers: response.headers });
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(replaced, { status: response.status, headers });
}

/** The exchange rides to the per-request server in AuthInfo.extra, the SDK's pass-through slot (the secret stays in the exchange). */
function authInfoOf(exchange: McpExchange): AuthInfo {
  const keyId = exchange.caller.key.key_id;
  return { token: keyId, clientId: keyId, scopes: [], extra: { exchange } };
}

function exchangeOf(authInfo: AuthInfo | undefined): McpExchange {
  const exchange = authInfo?.extra?.["exchange"];
  if (!(exchange instanceof McpExchange)) throw new Error("an MCP request reached the server without its exchange");
  return exchange;
}

/** The parsed body, or undefined when it is not JSON (the SDK answers that with -32700). */
function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}
