import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, toolRefusal, type Connected } from "./mcp-client.js";

// The MCP side of issue 18's defects, with the official SDK client:
// inherited object names as arguments, previews of account_status, typed
// integers, empty values, and long values in details.

type Body = Record<string, unknown>;

let server: TestServer;
let connected: Connected;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2016] });
  connected = await connectClient(server);
});

afterAll(async () => {
  await connected?.close();
  await server?.close();
});

function refusal(name: string, args: Body): ReturnType<typeof toolRefusal> {
  return toolRefusal(connected, name, args);
}

async function creditsUsed(): Promise<number> {
  return (await json<{ credits_used: number }>(await server.get("/account"))).credits_used;
}

describe("names every object inherits", () => {
  it.each(["constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf"])(
    "refuses %s as -32602 unknown_parameter, not -32603",
    async (name) => {
      for (const tool of ["search_news", "account_status", "get_article"]) {
        const answer = await refusal(tool, { [name]: 1, ...(tool === "get_article" ? { id: "x" } : {}) });
        expect(answer.code, tool).toBe(-32602);
        expect(answer.data.code, tool).toBe("unknown_parameter");
      }
      const answer = await refusal("search_news", { [name]: "x" });
      expect(answer.data.code).toBe("unknown_parameter");
      expect(answer.message).toContain(`'${name}'`);
    },
  );

  it("refuses a __proto__ argument as -32602 unknown_parameter, charging nothing: no pollution, no -32603", async () => {
    // The SDK parses arguments into fresh objects, where a `__proto__` key would vanish; the endpoint keeps its name.
    const before = await creditsUsed();
    const answer = await refusal("search_news", JSON.parse('{"__proto__": {"limit": 1}, "view": "compact"}') as Body);
    expect(answer.code).toBe(-32602);
    expect(answer.data).toMatchObject({ code: "unknown_parameter", parameter: "__proto__" });
    expect(({} as Body).limit).toBeUndefined();
    expect(await creditsUsed()).toBe(before);
  });
});

describe("account_status", () => {
  it("previews at 0 credits with estimate: true, and takes max_credits", async () => {
    const before = await creditsUsed();
    const result = await connected.client.callTool({ name: "account_status", arguments: { estimate: true } });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ estimate: true, credits: { min: 0, max: 0 }, credits_charged: 0 });
    const plain = await connected.client.callTool({ name: "account_status", arguments: { max_credits: 0 } });
    expect(plain.structuredContent).toMatchObject({ plan: "archive", credits_charged: 0 });
    expect(await creditsUsed()).toBe(before);
  });
});

describe("typed arguments", () => {
  it.each([{ limit: "5" }, { limit: 5.5 }, { max_credits: "10" }, { estimate: "true" }, { limit: true }])(
    "refuses %j as -32602 invalid_parameter",
    async (args) => {
      const answer = await refusal("search_news", args);
      expect(answer.code).toBe(-32602);
      expect(answer.data.code).toBe("invalid_parameter");
    },
  );

  it("reads JSON numbers and booleans", async () => {
    const result = await connected.client.callTool({ name: "search_news", arguments: { limit: 2, estimate: true } });
    expect(result.structuredContent).toMatchObject({ estimate: true });
  });

  it.each([{ source: "" }, { q: "" }, { view: "" }])("refuses the empty value %j as on REST", async (args) => {
    const answer = await refusal("search_news", args);
    expect(answer.data.code).toBe("invalid_parameter");
    expect(answer.message).toContain("is empty");
  });

  it("quotes a short prefix of a long value", async () => {
    const answer = await refusal("search_news", { q: "z".repeat(10_000) });
    expect(answer.data.code).toBe("invalid_parameter");
    expect(answer.message).not.toContain("z".repeat(100));
    expect(JSON.stringify(answer.data).length).toBeLessThan(600);
  });
});
