import { localhostAllowedOrigins, validateOriginHeader } from "@modelcontextprotocol/server";
import type { FastifyReply, FastifyRequest } from "fastify";

// The Streamable HTTP transport requires servers to validate Origin against
// DNS rebinding. Only browsers send Origin, and keys must not be placed in a
// browser (spec section 5, rule 5), so a browser page is accepted only from a
// local origin (a developer's tool such as the MCP Inspector's web UI).
// Clients that send no Origin (every non-browser client) pass.

export async function checkOrigin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const origin = validateOriginHeader(request.headers.origin, localhostAllowedOrigins());
  if (origin.ok) return;
  await reply
    .status(403)
    .type("application/json; charset=utf-8")
    .send({
      jsonrpc: "2.0",
      error: { code: -32000, message: `Forbidden: ${origin.message}. Keys must not be used from a browser page.` },
      id: null,
    });
}
