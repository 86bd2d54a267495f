import type { FastifyReply, FastifyRequest } from "fastify";

// Fastify speaks Node's request/response; the MCP SDK's HTTP handlers speak
// the web-standard Request/Response. These two functions translate, nothing more.

/** Headers that describe one hop's connection, not the message. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "content-length", "upgrade", "host"]);

export function toWebRequest(request: FastifyRequest, body: string | undefined, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The origin part of the URL is never read (no host-based routing); a fixed one keeps a hostile Host header out.
  return new Request(new URL(request.url, "http://mcp.local"), {
    method: request.method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal,
  });
}

/** Sends a complete web Response (the SDK is run in JSON mode, so bodies are short and finished). */
export async function sendWebResponse(
  reply: FastifyReply,
  response: Response,
  extraHeaders: Record<string, string> = {},
): Promise<FastifyReply> {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) reply.header(name, value);
  });
  reply.headers(extraHeaders);
  const text = response.body === null ? "" : await response.text();
  return reply.send(text);
}

/** An AbortSignal that fires when the client goes away before its answer is written. */
export function disconnectSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
