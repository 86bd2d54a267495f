import { ProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import type { CallOutcome } from "../../app/run-operation.js";
import type { ApiError } from "../../shared/api-error.js";

// The one place a call's outcome becomes MCP (spec section 7, rule 5, and
// section 5's MCP column). Our contract wins where MCP conventions differ:
// newer MCP revisions report input validation as a tool error, we answer the
// whole 400 family as JSON-RPC -32602 with the spec body in error.data.
//
// - success: structuredContent is the REST body (with credits_charged), plus a text copy;
// - the 400 family: JSON-RPC -32602, message = the detail (an unknown
//   parameter's detail names the closest valid one), data = the spec body;
// - message_rate_limited: HTTP 429 with retry-after, like REST (McpRateLimited);
// - every other refusal (credits, suspension, not_found, upstream): a tool
//   result with isError: true carrying the REST body plus credits_charged.

/** Thrown out of a tool call to turn the whole HTTP answer into a 429. */
export class McpRateLimited extends Error {
  constructor(readonly error: ApiError) {
    super(error.detail);
    this.name = "McpRateLimited";
  }
}

export function toToolResult(outcome: CallOutcome): CallToolResult {
  if (outcome.ok) return structured(outcome.body, false);
  const { error } = outcome;
  if (error.status === 400) throw invalidParams(error);
  if (error.code === "message_rate_limited") throw new McpRateLimited(error);
  return structured({ ...error.toBody(), credits_charged: outcome.credits_charged }, true);
}

/** The 400 family as JSON-RPC -32602. */
export function invalidParams(error: ApiError): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, error.detail, error.toBody());
}

function structured(body: Record<string, unknown>, isError: boolean): CallToolResult {
  return {
    content: [{ type: "text", text: JSON.stringify(body) }],
    structuredContent: body,
    ...(isError ? { isError: true } : {}),
  };
}
