import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { expect } from "vitest";
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import type { TestServer } from "../support/test-server.js";

// The official MCP TypeScript client (v2) connected to a test server over real
// HTTP, in either protocol era: "2025" runs the initialize handshake
// (2025-11-25), "modern" pins the 2026-07-28 per-request envelope.

export type Era = "2025" | "modern";

export const MODERN_REVISION = "2026-07-28";

export interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  close(): Promise<void>;
}

export interface PooledFetch {
  fetch(url: string | URL, init?: RequestInit): Promise<Response>;
  destroy(): Promise<void>;
}

/**
 * A fetch with its own connection pool, destroyed with the client. A 2025-era
 * client opens its GET stream in the background; a socket it connected but
 * never used would hold the server's graceful close for a minute.
 */
export function pooledFetch(): PooledFetch {
  const agent = new Agent();
  return {
    // undici's fetch goes with undici's Agent; its Response is the web Response the clients read.
    fetch: async (url, init) =>
      (await undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher: agent })) as unknown as Response,
    destroy: () => agent.destroy(),
  };
}

export async function connectClient(
  server: TestServer,
  options: { era?: Era; key?: string; headers?: Record<string, string> } = {},
): Promise<Connected> {
  const headers = { "x-api-key": options.key ?? server.key, ...options.headers };
  const pool = pooledFetch();
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers },
    fetch: pool.fetch,
  });
  const client = new Client(
    { name: "newsindex-test", version: "1.0.0" },
    options.era === "modern" ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {},
  );
  try {
    await client.connect(transport);
  } catch (error) {
    await pool.destroy();
    throw error;
  }
  return {
    client,
    transport,
    async close() {
      await client.close();
      await pool.destroy();
    },
  };
}

/** POSTs one raw JSON-RPC body to /mcp, for what a client library would not send. */
export function postRaw(
  server: TestServer,
  body: string,
  headers: Record<string, string> = {},
  key: string | null = server.key,
): Promise<Response> {
  return fetch(`${server.url}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(key === null ? {} : { "x-api-key": key }),
      ...headers,
    },
    body,
  });
}

/** A tools/call the server refuses at the protocol level (-326xx): its JSON-RPC code, message and data. */
export async function toolRefusal(
  connected: Connected,
  name: string,
  args: Record<string, unknown>,
): Promise<{ code: number; message: string; data: Record<string, unknown> }> {
  const error = await connected.client.callTool({ name, arguments: args }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${name} ${JSON.stringify(args)}`).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  return { code, message, data: data as Record<string, unknown> };
}
