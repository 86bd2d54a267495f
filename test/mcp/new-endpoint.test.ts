import { ProtocolError } from "@modelcontextprotocol/client";
import { Type } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceOf } from "../../src/domain/pricing.js";
import { defineOperation, toolOperations } from "../../src/app/operation.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { jsonBody, STORY_QUERY } from "../../src/schemas/params.js";
import { controlSql } from "../support/control-sql.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, type Connected } from "./mcp-client.js";

// A REST endpoint becomes an MCP tool by being declared once. Endpoints
// declared only here, served next to the registry: one takes `signals`, whose
// MCP shape (an array of {name, min, max}) differs from its REST shape (packed
// clauses), one fails in a way nothing foresaw, and two change state: a POST
// whose JSON body carries the /stories query (as a watch's will) and a DELETE.

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
  prepare(params) {
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
  prepare() {
    return {
      price: priceOf({ operation: "free" }),
      execute: async () => {
        throw new Error("SQLITE_CORRUPT: database disk image is malformed at /srv/secret/control.db");
      },
    };
  },
});

/** What the two state-changing endpoints did, in order. */
const effects: Array<{ saved: Record<string, unknown> } | { deleted: string }> = [];

const saveQuery = defineOperation({
  name: "saveQuery",
  tool: "save_query",
  method: "POST",
  path: "/saved-queries",
  pathParams: [],
  summary: "Save a /stories query",
  description: "Test endpoint: keeps the body it was given.",
  sideEffects: true,
  status: 201,
  params: Type.Object({}, { additionalProperties: false }),
  body: jsonBody({ label: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...STORY_QUERY }),
  response: Type.Object({ saved: Type.Record(Type.String(), Type.Unknown()), credits_charged: Type.Integer() }),
  prepare(values) {
    return {
      price: priceOf({ operation: "watch" }),
      execute: async () => {
        const saved = { ...values };
        effects.push({ saved });
        return { saved };
      },
    };
  },
});

const deleteQuery = defineOperation({
  name: "deleteQuery",
  tool: "delete_query",
  method: "DELETE",
  path: "/saved-queries/{id}",
  pathParams: ["id"],
  summary: "Delete a saved query",
  description: "Test endpoint: records the id it was asked to delete.",
  sideEffects: true,
  params: Type.Object({ id: Type.String({ minLength: 1 }) }),
  response: Type.Object({ deleted: Type.Boolean(), id: Type.String(), credits_charged: Type.Integer() }),
  prepare(params) {
    return {
      price: priceOf({ operation: "watch" }),
      execute: async () => {
        effects.push({ deleted: params.id });
        return { deleted: true, id: params.id };
      },
    };
  },
});

let server: TestServer;
let connected: Connected;

beforeAll(async () => {
  server = await startTestServer({
    files: [SAMPLE_FILES.batch2016],
    operations: [...OPERATIONS, echoSignals, failing, saveQuery, deleteQuery],
  });
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
    expect(tools.map((t) => t.name)).toEqual([
      ...toolOperations(OPERATIONS).map((o) => o.tool),
      "echo_signals",
      "failing_tool",
      "save_query",
      "delete_query",
    ]);
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
    await controlSql(server, "UPDATE tenants SET suspended = TRUE WHERE id = ?", [issued.tenant.id]);
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

describe("an endpoint with a method, a JSON body and side effects, declared once", () => {
  function send(method: string, path: string, body?: unknown): Promise<Response> {
    return fetch(server.url + path, {
      method,
      headers: { "x-api-key": server.key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  it("is a REST POST answering 201, its body checked by the /stories declarations before anything happens", async () => {
    effects.length = 0;
    const created = await send("POST", "/saved-queries", { label: "floods", q: "flood", language: "ENG", source_type: "web" });
    expect(created.status).toBe(201);
    expect(await json(created)).toMatchObject({
      saved: { label: "floods", q: "flood", language: "ENG", source_type: "web", mode: "keyword" },
      credits_charged: 1,
    });

    const refusals: Array<[unknown, string, string]> = [
      [{ q: "flood", from: "2024-01-01" }, "unknown_parameter", "from"],
      [{ q: "flood", language: "en" }, "invalid_parameter", "language"],
      [{ q: "flood", source_type: "website" }, "invalid_parameter", "source_type"],
      [["flood"], "invalid_parameter", ""],
    ];
    for (const [body, code, parameter] of refusals) {
      const response = await send("POST", "/saved-queries", body);
      const answer = await json(response);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(answer, JSON.stringify(body)).toMatchObject({ code });
      if (parameter) expect(answer.detail).toContain(`'${parameter}'`);
    }
    // The query string takes only the parameters: a body field there is unknown.
    expect(await json(await send("POST", "/saved-queries?q=flood", { label: "x" }))).toMatchObject({ code: "unknown_parameter" });
    // A price preview does nothing.
    expect(await json(await send("POST", "/saved-queries?estimate=true", { q: "flood" }))).toMatchObject({ estimate: true });
    expect(effects).toHaveLength(1);
  });

  it("is a REST DELETE on its path, and the same path takes no other method", async () => {
    effects.length = 0;
    const deleted = await send("DELETE", "/v1/saved-queries/abc");
    expect(deleted.status).toBe(200);
    expect(await json(deleted)).toMatchObject({ deleted: true, id: "abc" });
    // Another method on the path is no route: 400, not the cacheable 404 of an absent id (docs/completeness.md).
    expect(await json(await send("GET", "/saved-queries/abc"))).toMatchObject({ code: "invalid_parameter" });
    expect(effects).toEqual([{ deleted: "abc" }]);
  });

  it("is described in OpenAPI with its method, requestBody and 201", async () => {
    const openapi = await json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(
      await server.get("/openapi.json", null),
    );
    const post = openapi.paths["/saved-queries"]?.post as {
      requestBody: { required: boolean; content: Record<string, { schema: { properties: Record<string, unknown> } }> };
      responses: Record<string, unknown>;
      parameters: Array<{ name: string }>;
    };
    expect(post.requestBody.required).toBe(true);
    const schema = post.requestBody.content["application/json"]?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(["label", ...Object.keys(STORY_QUERY)]);
    expect(schema).toMatchObject({ additionalProperties: false });
    expect(post.responses["201"]).toBeDefined();
    // A preview (estimate=true) creates nothing: 200 with the price preview.
    expect(post.responses["200"]).toMatchObject({
      content: { "application/json": { schema: { $ref: "#/components/schemas/EstimateResponse" } } },
    });
    expect(post.parameters.map((p) => p.name)).toEqual(["estimate", "max_credits"]);
    expect(openapi.paths["/saved-queries/{id}"]?.delete).toMatchObject({ operationId: "deleteQuery" });
  });

  it("is an MCP tool whose arguments merge path, query and body fields, marked as changing state", async () => {
    effects.length = 0;
    const { tools } = await connected.client.listTools();
    const save = tools.find((t) => t.name === "save_query");
    const remove = tools.find((t) => t.name === "delete_query");
    expect(Object.keys(save?.inputSchema.properties ?? {})).toEqual([
      "estimate",
      "max_credits",
      "label",
      ...Object.keys(STORY_QUERY),
    ]);
    expect(save?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(remove?.inputSchema).toMatchObject({ required: ["id"] });
    expect(remove?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === "search_news")?.annotations).toMatchObject({ readOnlyHint: true });

    const saved = await connected.client.callTool({ name: "save_query", arguments: { label: "x", q: "flood", max_credits: 5 } });
    expect(saved.structuredContent).toMatchObject({ saved: { label: "x", q: "flood" }, credits_charged: 1 });
    const refused = await connected.client.callTool({ name: "save_query", arguments: { q: "flood", language: "en" } }).then(
      () => undefined,
      (e: unknown) => e as ProtocolError,
    );
    expect(refused?.data).toMatchObject({ code: "invalid_parameter", parameter: "language" });
    await connected.client.callTool({ name: "delete_query", arguments: { id: "abc" } });
    expect(effects).toEqual([{ saved: { label: "x", q: "flood", mode: "keyword", max_credits: 5 } }, { deleted: "abc" }]);
  });
});
