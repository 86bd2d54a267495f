import type { FastifyInstance } from "fastify";

/**
 * Closes the server gracefully: it stops accepting connections and answers the requests under way. Connections
 * still open after `graceMs` are cut, so a shutdown never waits on one client: a client that stopped reading a
 * response, or an upload the server refused before reading it (a 401 or 413 on a large body).
 */
export async function closeApp(app: FastifyInstance, graceMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), graceMs);
  timer.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}
