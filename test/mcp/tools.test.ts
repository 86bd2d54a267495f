import { ProtocolError, type Client } from "@modelcontextprotocol/client";
import type { TSchema } from "@sinclair/typebox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolOperations } from "../../src/app/operation.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, type Connected, type Era } from "./mcp-client.js";

// Tools generated from the operations registry, called with the official SDK
// client in both protocol eras: the arguments are the REST parameters, results
// are the REST bodies (structured plus a text copy) with credits_charged, and
// the 400 family is JSON-RPC -32602 with the spec body in error.data.

type Body = Record<string, unknown>;

interface ToolError {
  code: number;
  message: string;
  data: Body;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023] });
});

afterAll(async () => {
  await server?.close();
});

async function rpcError(promise: Promise<unknown>): Promise<ToolError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  const { code, message, data } = error as ProtocolError;
  return { code, message, data: data as Body };
}

async function call(client: Client, name: string, args: Body): Promise<{ body: Body; isError: boolean; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as Array<{ type: string; text?: string }>)[0];
  return { body: result.structuredContent as Body, isError: result.isError === true, text: first?.text ?? "" };
}

describe("the tool list", () => {
  it("has one tool per registry operation, arguments equal to its parameters, closed", async () => {
    const connected = await connectClient(server);
    const { tools } = await connected.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(toolOperations(OPERATIONS).map((o) => o.tool));
    for (const operation of toolOperations(OPERATIONS)) {
      const tool = tools.find((t) => t.name === operation.tool);
      const declared = operation.params.properties as Record<string, TSchema>;
      // A POST's body fields are arguments too (one set of arguments per call).
      const bodyFields = Object.keys(operation.body?.properties ?? {});
      expect(Object.keys(tool?.inputSchema.properties ?? {}), operation.tool).toEqual([...Object.keys(declared), ...bodyFields]);
      expect(tool?.inputSchema.additionalProperties, operation.tool).toBe(false);
      expect(tool?.inputSchema.required ?? [], operation.tool).toEqual([
        ...(operation.params.required ?? []),
        ...(operation.body?.required ?? []),
      ]);
      expect(tool?.outputSchema?.type, operation.tool).toBe("object");
      expect(tool?.description, operation.tool).toContain(operation.path);
      if (!operation.free) expect(Object.keys(declared)).toEqual(expect.arrayContaining(["estimate", "max_credits"]));
    }
    await connected.close();
  });

  it("serves the same schemas at /mcp/tools.json, key-free", async () => {
    const connected = await connectClient(server);
    const { tools } = await connected.client.listTools();
    const published = await json<{ tools: unknown[] }>(await server.get("/mcp/tools.json", null));
    expect(published.tools).toEqual(JSON.parse(JSON.stringify(tools)));
    await connected.close();
  });

  it("declares search_news with no required argument and keyword as the default mode", async () => {
    const published = await json<{ tools: Array<{ name: string; inputSchema: { required?: string[]; properties: Body } }> }>(
      await server.get("/mcp/tools.json", null),
    );
    const search = published.tools.find((t) => t.name === "search_news");
    expect(search?.inputSchema.required).toBeUndefined();
    expect(search?.inputSchema.properties.mode).toMatchObject({ default: "keyword" });
  });
});

describe.each<Era>(["2025", "modern"])("tool calls (%s era)", (era) => {
  let connected: Connected;
  beforeAll(async () => {
    connected = await connectClient(server, { era });
  });
  afterAll(async () => {
    await connected?.close();
  });

  it("search_news answers the REST body with credits_charged, structured and as text", async () => {
    const { body, isError, text } = await call(connected.client, "search_news", { q: "biden", limit: 3 });
    expect(isError).toBe(false);
    expect(JSON.parse(text)).toEqual(body);
    expect(body.credits_charged).toBe(1);
    expect(body.mode).toBe("keyword");
    const rest = await json<Body>(await server.get("/search?q=biden&limit=3"));
    expect({ ...body }).toEqual(rest);
  });

  it("search_news needs no q: it browses newest first", async () => {
    const { body } = await call(connected.client, "search_news", { limit: 2 });
    expect(body.mode).toBe("recent");
    expect((body.results as unknown[]).length).toBe(2);
  });

  it("list_stories answers the /stories body; an offset above 1000 is -32602", async () => {
    const { body, isError } = await call(connected.client, "list_stories", { q: "police", sort: "outlets", limit: 2 });
    expect(isError).toBe(false);
    expect(body).toEqual(await json<Body>(await server.get("/stories?q=police&sort=outlets&limit=2")));
    expect((body.stories as Body[]).length).toBe(2);
    const refused = await rpcError(connected.client.callTool({ name: "list_stories", arguments: { offset: 1001 } }));
    expect(refused.code).toBe(-32602);
    expect(refused.data.code).toBe("invalid_parameter");
  });

  it("get_article takes the path parameter as an argument", async () => {
    const { body: found } = await call(connected.client, "search_news", { limit: 1 });
    const id = ((found.results as Body[])[0] as Body).id as string;
    const { body, isError } = await call(connected.client, "get_article", { id });
    expect(isError).toBe(false);
    expect(body.id).toBe(id);
    expect(body.credits_charged).toBe(1);
    expect(body).toEqual(await json<Body>(await server.get(`/doc/${id}`)));
  });

  it("answers a missing article as a tool error with the REST body, charged the minimum", async () => {
    const { body, isError, text } = await call(connected.client, "get_article", { id: "20230702153000-999999" });
    expect(isError).toBe(true);
    const rest = await server.get("/doc/20230702153000-999999");
    expect(rest.status).toBe(404);
    expect(body).toEqual({ ...(await json<Body>(rest)), credits_charged: 1 });
    expect(JSON.parse(text)).toEqual(body);
  });

  it("answers estimate=true with the price, charged nothing", async () => {
    const { body, isError } = await call(connected.client, "search_news", { q: "biden", estimate: true });
    expect(isError).toBe(false);
    expect(body.estimate).toBe(true);
    expect(body.credits_charged).toBe(0);
    expect(body.credits).toEqual({ min: 1, max: 1 });
  });

  it("answers every tool in the list (never an internal error)", async () => {
    const { tools } = await connected.client.listTools();
    for (const tool of tools) {
      const answer = await connected.client.callTool({ name: tool.name, arguments: {} }).then(
        (result) => ({ ok: true, result }),
        (error: unknown) => ({ ok: false, error }),
      );
      if (!answer.ok) {
        // A tool with required arguments refuses {} as the 400 family, never as -32603.
        expect((answer as { error: ProtocolError }).error.code, tool.name).toBe(-32602);
      }
    }
  });

  it("names the closest valid argument for an undeclared one (-32602, code in data)", async () => {
    const error = await rpcError(connected.client.callTool({ name: "search_news", arguments: { lang: "eng" } }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("Did you mean 'language'");
    expect(error.data).toMatchObject({
      code: "unknown_parameter",
      error: "Unknown parameter",
      parameter: "lang",
      suggestion: "language",
    });
    const typo = await rpcError(connected.client.callTool({ name: "get_article", arguments: { idd: "x" } }));
    expect(typo.message).toContain("Did you mean 'id'");
  });

  it("names the tools taking an argument another tool takes (-32602)", async () => {
    const error = await rpcError(connected.client.callTool({ name: "list_stories", arguments: { cursor: "start" } }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("It is taken by /search (search_news) and /top-headlines (top_headlines).");
    expect(error.data).toMatchObject({ code: "unknown_parameter", parameter: "cursor" });
  });

  it("answers invalid values with -32602 invalid_parameter and the REST detail", async () => {
    const error = await rpcError(connected.client.callTool({ name: "search_news", arguments: { limit: 500 } }));
    expect(error.code).toBe(-32602);
    expect(error.data.code).toBe("invalid_parameter");
    // The same rule and wording as REST; the detail quotes the value as given (a JSON number here, text in a query string).
    const rest = await json<Body>(await server.get("/search?limit=500"));
    expect(error.data).toEqual({ ...rest, detail: String(rest.detail).replace('"500"', "500") });
    expect(error.message).toBe(error.data.detail);
    const typed = await rpcError(connected.client.callTool({ name: "search_news", arguments: { language: "en" } }));
    expect(typed.message).toContain("three letters");
  });

  it("answers a worst case above max_credits with -32602 credit_budget_exceeded", async () => {
    const error = await rpcError(connected.client.callTool({ name: "search_news", arguments: { q: "biden", max_credits: 0 } }));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ code: "credit_budget_exceeded", max_credits: 0 });
  });

  it("answers an unknown tool with -32602 naming the closest tool", async () => {
    const error = await rpcError(connected.client.callTool({ name: "search", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("Did you mean 'search_news'");
  });
});
