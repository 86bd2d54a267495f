import type { FastifyReply, FastifyRequest } from "fastify";
import type { Viewer } from "../../usecases/console/console-sessions.js";
import { layout, type Page } from "./layout.js";

/** The session cookie: its value is a random secret whose hash finds the session. */
export const SESSION_COOKIE = "newsindex_console";

export function sendPage(reply: FastifyReply, page: Page, viewer?: Viewer): FastifyReply {
  return reply.type("text/html; charset=utf-8").send(layout(page, viewer).text);
}

/** The console's origin as this request sees it (the proxy's, with trustProxy). */
export function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}
