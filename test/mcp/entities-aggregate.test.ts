import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { cutWindowResolutionCredits } from "../support/test-shape.js";
import { connectClient, type Connected } from "./mcp-client.js";

// resolve_entity and aggregate_news over the official SDK client: the same
// operations as GET /entities and GET /aggregate, so the same bodies, credits
// and refusals; entity_id as an array over MCP.

type Body = Record<string, unknown>;

let server: TestServer;
let connected: Connected;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.spark] });
  connected = await connectClient(server);
});

afterAll(async () => {
  await connected?.close();
  await server?.close();
});

async function call(name: string, args: Body): Promise<Body> {
  const result = await connected.client.callTool({ name, arguments: args });
  expect(result.isError).not.toBe(true);
  return result.structuredContent as Body;
}

async function withoutCharge(path: string): Promise<Body> {
  const { credits_charged: _c, ...body } = await json<Body>(await server.get(path));
  return body;
}

describe("resolve_entity", () => {
  it("answers what GET /entities answers, with credits_charged", async () => {
    const body = await call("resolve_entity", { q: "biden", type: "person" });
    const { credits_charged, ...rest } = body;
    expect(credits_charged).toBe(1);
    expect(rest).toEqual(await withoutCharge("/entities?q=biden&type=person"));
    expect((body.entities as Array<{ entity_id: string }>).map((g) => g.entity_id)).toEqual([
      "person:joe biden",
      "person:jill biden",
      "person:hunter biden",
    ]);
  });

  it("refuses a bad type as -32602 with the REST body", async () => {
    const error = await connected.client.callTool({ name: "resolve_entity", arguments: { q: "biden", type: "people" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect(((error as ProtocolError).data as Body).code).toBe("invalid_parameter");
  });
});

describe("aggregate_news", () => {
  it("answers what GET /aggregate answers, entity_id as an array", async () => {
    const body = await call("aggregate_news", {
      interval: "hour",
      from: "2023-07-02",
      to: "2023-07-02",
      metrics: "stories,outlets",
      entity_id: ["person:joe biden"],
    });
    const { credits_charged, ...rest } = body;
    // 1 for the series, 2 for the id (embedded): the day cuts into the July index, which holds articles published in June.
    expect(credits_charged).toBe(1 + cutWindowResolutionCredits());
    expect(rest).toEqual(
      await withoutCharge(
        `/aggregate?interval=hour&from=2023-07-02&to=2023-07-02&metrics=stories,outlets&entity_id=person:joe+biden`,
      ),
    );
    expect(body.resolved).toEqual([{ entity_id: "person:joe biden", aliases_used: ["joe biden"] }]);
    expect((body.buckets as unknown[]).length).toBe(24);
  });

  it("search_news takes entity_id as an array or a comma-separated string", async () => {
    const array = await call("search_news", { entity_id: ["person:hunter biden", "person:joe biden"] });
    const text = await call("search_news", { entity_id: "person:hunter biden,person:joe biden" });
    expect(array.total).toBe(2);
    expect(text.total).toBe(2);
  });

  it("refuses more than 366 buckets as -32602", async () => {
    const error = await connected.client
      .callTool({ name: "aggregate_news", arguments: { interval: "day", from: "2020-01-01", to: "2022-01-01" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect((error as ProtocolError).code).toBe(-32602);
    expect(((error as ProtocolError).data as Body).detail).toMatch(/at most 366/);
  });
});
