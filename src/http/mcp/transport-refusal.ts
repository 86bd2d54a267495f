import { ApiError } from "../../shared/api-error.js";

// The Streamable HTTP transport refuses some requests before any JSON-RPC is
// read (a body that is not JSON, a wrong media type or Accept header) with a
// JSON-RPC error of its own. Every 4xx of ours also carries the spec's error
// body (section 7: "Clients switch on code"), so such an answer keeps its
// JSON-RPC shape, with the body in `error.data` (as on every -32602) and its
// `code` and `detail` beside `jsonrpc` for a client that reads plain HTTP.

interface JsonRpcErrorAnswer {
  jsonrpc: "2.0";
  id: unknown;
  error: { code: number; message: string; data?: unknown };
}

/** A JSON-RPC transport error carrying the spec's body: `invalid_parameter`, the detail from the transport's message. */
export function transportRefusal(rpcCode: number, message: string, id: unknown = null): Record<string, unknown> {
  const body = new ApiError("invalid_parameter", `${message}. See /docs/mcp.md.`).toBody();
  return { jsonrpc: "2.0", id, error: { code: rpcCode, message, data: body }, code: body.code, detail: body.detail };
}

/** The SDK's own 4xx with the spec's body added; any other response unchanged (undefined). */
export function withErrorBody(status: number, text: string): string | undefined {
  if (status < 400 || status >= 500) return undefined;
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // Not JSON at all: the transport answered in plain text; say the same as our body.
    return JSON.stringify(
      new ApiError("invalid_parameter", text.trim() || "The request was refused by the MCP transport.").toBody(),
    );
  }
  if (!isErrorAnswer(answer) || hasSpecBody(answer.error.data)) return undefined;
  return JSON.stringify(transportRefusal(answer.error.code, answer.error.message, answer.id));
}

function isErrorAnswer(value: unknown): value is JsonRpcErrorAnswer {
  if (typeof value !== "object" || value === null || !("error" in value)) return false;
  const error = (value as { error: unknown }).error;
  return typeof error === "object" && error !== null && "code" in error && "message" in error;
}

function hasSpecBody(data: unknown): boolean {
  return typeof data === "object" && data !== null && typeof (data as { code?: unknown }).code === "string";
}
