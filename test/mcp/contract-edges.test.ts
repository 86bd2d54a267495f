import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { connectClient, toolRefusal, postRaw, type Connected } from "./mcp-client.js";

// The MCP door at its edges, with the official SDK client where a client
// library can send it and raw JSON-RPC where it would not: deep arguments,
// undeclared ones (`__proto__` included), hints from a tool's whole argument
// set, transport refusals carrying the spec's body, and every kind of message
// counted against the plan's messages per minute.

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

function toolCall(name: string, argumentsJson: string): string {
  return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`;
}

interface RpcAnswer {
  error?: { code: number; message: string; data?: Body };
  result?: Body;
  code?: string;
  detail?: string;
}

describe("arguments", () => {
  it("refuses an argument nested 5,000 deep as -32602, not -32603", async () => {
    const deep = "[".repeat(5_000) + '"x"' + "]".repeat(5_000);
    for (const [tool, args] of [
      ["search_news", `{"q":${deep}}`],
      ["create_watch", `{"interval_minutes":60,"q":${deep}}`],
      ["search_news", `{"signals":${deep}}`],
    ] as const) {
      const answer = await json<RpcAnswer>(await postRaw(server, toolCall(tool, args)));
      expect(answer.error?.code, args.slice(0, 20)).toBe(-32602);
      expect(answer.error?.data?.code).toBe("invalid_parameter");
    }
  });

  it("refuses __proto__ as -32602 unknown_parameter and charges nothing", async () => {
    const before = await creditsUsed();
    const response = await postRaw(server, toolCall("search_news", '{"__proto__":{"limit":1}}'));
    const answer = await json<RpcAnswer>(response);
    expect(answer.result).toBeUndefined();
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.data?.code).toBe("unknown_parameter");
    expect(answer.error?.data?.parameter).toBe("__proto__");
    expect(await creditsUsed()).toBe(before);
  });

  it("hints create_watch's body fields like REST: 'lang' suggests 'language'", async () => {
    const answer = await refusal("create_watch", { interval_minutes: 60, lang: "eng" });
    expect(answer.code).toBe(-32602);
    expect(answer.data).toMatchObject({ code: "unknown_parameter", parameter: "lang", suggestion: "language" });
    expect(answer.message).toContain("Did you mean 'language'?");
  });
});

describe("transport refusals carry the spec's error body", () => {
  it("answers a body that is not JSON with -32700 and the body's code and detail", async () => {
    const response = await postRaw(server, "{not json");
    expect(response.status).toBe(400);
    const answer = await json<RpcAnswer>(response);
    expect(answer.error?.code).toBe(-32700);
    expect(answer.error?.data).toMatchObject({ code: "invalid_parameter" });
    expect(answer.code).toBe("invalid_parameter");
    expect(answer.detail?.length).toBeGreaterThan(10);
  });

  it("answers a wrong media type with 415 and the body's code and detail", async () => {
    const response = await postRaw(server, toolCall("account_status", "{}"), { "content-type": "text/plain" });
    expect(response.status).toBe(415);
    const answer = await json<RpcAnswer>(response);
    expect(answer.error?.data).toMatchObject({ code: "invalid_parameter" });
    expect(answer.code).toBe("invalid_parameter");
    expect(answer.detail).toContain("Content-Type");
  });

  it("answers an event stream asked without text/event-stream with 406 and the body", async () => {
    const response = await fetch(`${server.url}/mcp`, { headers: { "x-api-key": server.key, accept: "application/json" } });
    expect(response.status).toBe(406);
    const answer = await json<RpcAnswer>(response);
    expect(answer.code).toBe("invalid_parameter");
    expect(answer.error?.data).toMatchObject({ code: "invalid_parameter" });
  });
});

describe("every message counts against the plan's messages per minute (free: 60)", () => {
  /** The plan's 60 a minute, plus what the bucket refilled (1 a second) while `statuses` ran (4 at least). */
  let allowed = 64;

  async function statuses(send: (key: string) => Promise<Response>, count: number): Promise<number[]> {
    const { key } = await server.container.accounts.issueKey(`messages-${Math.random()}`, "free");
    const seen: number[] = [];
    const started = Date.now();
    for (let i = 0; i < count; i++) {
      const response = await send(key);
      seen.push(response.status);
      await response.body?.cancel();
    }
    allowed = Math.max(64, 60 + Math.ceil((Date.now() - started) / 1000));
    return seen;
  }

  it("counts notifications", async () => {
    const seen = await statuses((key) => postRaw(server, '{"jsonrpc":"2.0","method":"notifications/initialized"}', {}, key), 80);
    expect(seen.filter((s) => s === 202).length).toBeLessThanOrEqual(allowed);
    expect(seen).toContain(429);
  });

  it("counts bodies that are not JSON-RPC", async () => {
    const seen = await statuses((key) => postRaw(server, "{not json", {}, key), 80);
    expect(seen.filter((s) => s === 400).length).toBeLessThanOrEqual(allowed);
    expect(seen).toContain(429);
  });

  it("counts opening the event stream", async () => {
    const controllers: AbortController[] = [];
    const seen = await statuses(async (key) => {
      const controller = new AbortController();
      controllers.push(controller);
      return fetch(`${server.url}/mcp`, {
        headers: { "x-api-key": key, accept: "text/event-stream" },
        signal: controller.signal,
      });
    }, 80);
    for (const controller of controllers) controller.abort();
    expect(seen.filter((s) => s === 200).length).toBeLessThanOrEqual(allowed);
    const limited = seen.indexOf(429);
    expect(limited).toBeGreaterThan(0);
  });
});
