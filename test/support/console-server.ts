import type { FastifyInstance } from "fastify";
import { OPERATIONS } from "../../src/app/registry.js";
import { closeApp } from "../../src/http/close-app.js";
import { buildConsoleApp } from "../../src/http/console/console-app.js";
import { createLogger } from "../../src/shared/logger.js";
import { startTestServer, type TestServer, type TestServerOptions } from "./test-server.js";

// The API server of test-server.ts with its console beside it, as `serve`
// runs them: a second Fastify server on the same container, on a free port.

export const OPERATOR_TOKEN = "console-operator-token-0123456789";

export interface ConsoleTestServer {
  api: TestServer;
  console: FastifyInstance;
  /** The console's origin, http://127.0.0.1:PORT. */
  url: string;
  close(): Promise<void>;
}

export async function startConsoleServer(options: TestServerOptions & { trustProxy?: boolean } = {}): Promise<ConsoleTestServer> {
  const api = await startTestServer({ adminToken: OPERATOR_TOKEN, ...options });
  const { app, url } = await startConsoleOn(api, options.trustProxy ?? false);
  return {
    api,
    console: app,
    url,
    async close() {
      await closeApp(app, 1_000);
      await api.close();
    },
  };
}

/** A console on an API test server's container; the caller closes it (before the server). */
export async function startConsoleOn(api: TestServer, trustProxy: boolean): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildConsoleApp(
    { deps: api.container, operations: OPERATIONS, operatorToken: OPERATOR_TOKEN, trustProxy, apiUrl: api.url },
    createLogger("silent"),
  );
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("console did not bind a TCP port");
  return { app, url: `http://127.0.0.1:${address.port}` };
}
