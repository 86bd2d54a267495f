import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { internalErrorBody } from "../../shared/api-error.js";
import { upstreamFailure } from "../../shared/upstream-failure.js";
import { CONTRACT_VERSION } from "../../shared/version.js";
import { callTool, type ToolCallContext } from "./call-tool.js";
import type { McpExchange } from "./exchange.js";
import { McpRateLimited, toToolResult } from "./tool-result.js";

// One MCP server instance per HTTP request (the endpoint is stateless). The
// low-level Server is used rather than McpServer because McpServer turns every
// error a tool throws into a tool result, and our contract answers the 400
// family as JSON-RPC -32602.

export interface McpServerContext extends ToolCallContext {
  log: {
    error(details: object, message: string): void;
    warn(details: object, message: string): void;
    debug(details: object, message: string): void;
  };
}

const INSTRUCTIONS =
  "NewsIndex: ranked search over news-article metadata from The GDELT Project (GKG 2.1). " +
  "Tools mirror the REST endpoints one to one; their arguments are the endpoint's parameters. " +
  "Every result carries credits_charged and an attribution string that must accompany any use of the results. " +
  "Invalid or unknown arguments are JSON-RPC -32602 with the spec's error body (error.data.code); " +
  "credit, suspension, not-found and upstream refusals are tool errors carrying the REST error body. See /docs/mcp.md.";

export function createMcpServer(exchange: McpExchange, context: McpServerContext): Server {
  const server = new Server(
    { name: "newsindex", title: "NewsIndex", version: CONTRACT_VERSION },
    // logging: we send no log notifications; logging/setLevel is accepted so clients may set a level.
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler("tools/list", () => ({ tools: context.catalog.tools }));
  server.setRequestHandler("tools/call", async (request) => {
    const { name } = request.params;
    try {
      const result = await callTool(name, request.params.arguments ?? {}, exchange, context);
      const tool = context.catalog.tools.find((t) => t.name === name);
      return server.projectCallToolResult(result, tool?.outputSchema);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof McpRateLimited) {
        exchange.rateLimited(error.error);
        throw new ProtocolError(ProtocolErrorCode.InternalError, error.message);
      }
      // A full disk under the control store, or the store out of reach: an upstream refusal, so a tool error
      // carrying the 503 body, as the REST door answers it.
      const upstream = upstreamFailure(error, context.log);
      if (upstream !== undefined) return toToolResult({ ok: false, error: upstream, credits_charged: 0, headers: {} });
      // Unforeseen: logged here, and the client learns nothing internal.
      context.log.error({ err: error, tool: name }, "MCP tool call failed");
      const body = internalErrorBody();
      throw new ProtocolError(ProtocolErrorCode.InternalError, body.detail, body);
    }
  });
  return server;
}
