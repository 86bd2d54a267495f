import { ProtocolError } from "@modelcontextprotocol/client";
import { Type } from "@sinclair/typebox";
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceOf } from "../../src/domain/pricing.js";
import { defineOperation } from "../../src/operations/operation.js";
import { OPERATIONS } from "../../src/operations/registry.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, type Connected } from "./mcp-client.js";

// A REST endpoint becomes an MCP tool by being declared once. Two endpoints
// declared only here, served next to the registry: one takes `signals`, whose
// MCP shape (an array of {name, min, max}) differs from its REST shape (packed
// clauses), and one fails in a way nothing foresaw.

const echoSignals = defineOperation({
  name: "echoSignals",
  tool: "echo_signals",
  method: "GET",
  path: "/echo-signals",
  pathParams: [],
  summary: "Echo the signals clauses",
  description: "Test endpoint: answers the REST form of `signals` it received.",
  free: true,
  params: Type.Object(
    { signals: Type.Optional(Type.String({ minLength: 1, description: "`name[:min[:max]]` clauses, comma-separated." })) },
    { additionalProperties: false },
  ),
  response: Type.Object({
    signals: Type.Union([Type.String(), Type.Null()]),
    credits_charged: Type.Integer(),
    attribution: Type.String(),
  }),
  plan(params) {
    return {
      price: priceOf({ operation: "free" }),
      execute: async () => ({ signals: params.signals ?? null, attribution: "test" }),
    };
  },
});

const failing = defineOperation({
  name: "failing",
  tool: "failing_tool",
  method: "GET",
  path: "/failing",
  pathParams: [],
  summary: "Fail unexpectedly",
  description: "Test endpoint whose store breaks mid-call.",
  free: true,
  params: Type.Object({}, { additionalProperties: false }),
  response: Type.Object({}),
  plan() {
    return {
      price: priceOf({ operation: "free" }),
      execute: async () => {
        throw new Error("SQLITE_CORRUPT: database disk image is malformed at /srv/secret/control.db");
      },
    };
  },
});

let server: TestServer;
let connected: Connected;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016], operations: [...OPERATIONS, echoSignals, failing] });
  connected = await connectClient(server);
});

afterAll(async () => {
  await connected?.close();
  await server?.close();
});

describe("an endpoint declared once", () => {
  it("is a REST path and an MCP tool, in tools/list and /mcp/tools.json", async () => {
    expect((await json<{ signals: string }>(await server.get("/echo-signals?signals=tone:1:2"))).signals).toBe("tone:1:2");
    const { tools } = await connected.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...OPERATIONS.map((o) => o.tool), "echo_signals", "failing_tool"]);
    const published = await json<{ tools: Array<{ name: string }> }>(await server.get("/mcp/tools.json", null));
    expect(published.tools.map((t) => t.name)).toContain("echo_signals");
  });

  it("declares signals over MCP as an array of {name, min, max}", async () => {
    const { tools } = await connected.client.listTools();
    const signals = tools.find((t) => t.name === "echo_signals")?.inputSchema.properties?.signals as Record<string, unknown>;
    expect(signals.type).toBe("array");
    expect(signals.items).toMatchObject({
      type: "object",
      required: ["name"],
      additionalProperties: false,
      properties: { name: { type: "string" }, min: { type: "number" }, max: { type: "number" } },
    });
  });

  it("packs MCP signals into the REST clauses the one validator reads", async () => {
    const result = await connected.client.callTool({
      name: "echo_signals",
      arguments: {
        signals: [
          { name: "tone", min: 1.5 },
          { name: "conflict", max: 2 },
          { name: "risk", min: 0, max: 9 },
        ],
      },
    });
    expect(result.structuredContent).toMatchObject({ signals: "tone:1.5:,conflict::2,risk:0:9", credits_charged: 0 });
  });

  it("refuses signals in another shape with -32602 invalid_parameter", async () => {
    for (const signals of ["tone:1", [{ name: "tone", low: 1 }], []]) {
      const error = await connected.client.callTool({ name: "echo_signals", arguments: { signals } }).then(
        () => undefined,
        (e: unknown) => e as ProtocolError,
      );
      expect(error?.code, JSON.stringify(signals)).toBe(-32602);
      expect(error?.data).toMatchObject({ code: "invalid_parameter", parameter: "signals" });
      expect(error?.message).toContain("array of {name, min, max}");
    }
  });

  it("still checks suspension before a malformed MCP argument (spec section 5, rule 3)", async () => {
    const issued = await server.container.accounts.issueKey("suspended-signals", "build");
    const db = new Database(join(server.dataDir, "control.db"));
    db.prepare("UPDATE tenants SET suspended = 1 WHERE id = ?").run(issued.tenant.id);
    db.close();
    const suspended = await connectClient(server, { key: issued.key });
    const result = await suspended.client.callTool({ name: "echo_signals", arguments: { signals: "tone:1" } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: "suspended" });
    await suspended.close();
  });

  it("answers an unforeseen failure with -32603 that leaks nothing", async () => {
    const error = await connected.client.callTool({ name: "failing_tool", arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as ProtocolError,
    );
    expect(error?.code).toBe(-32603);
    expect(error?.data).toMatchObject({ code: "internal" });
    expect(JSON.stringify({ message: error?.message, data: error?.data })).not.toMatch(/sqlite|secret|malformed|\.db/i);
  });
});
