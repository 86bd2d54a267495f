import type { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, type Connected } from "../mcp/mcp-client.js";
import { TestClock } from "../support/test-clock.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";
import { CHILLIES_ID, CHILLIES_Q, reportsOf, writeReports } from "./watch-fixtures.js";

// The watch tools over the official MCP client (spec 02, section 1): the
// same operations as REST, with their refusals as MCP errors, and
// `unsupported` where the server keeps no watch store.

const clock = new TestClock(Date.UTC(2023, 6, 2, 16, 0, 0));
let server: TestServer;
let withoutWatches: TestServer;
let connected: Connected;

beforeAll(async () => {
  const files = () => [writeReports(reportsOf(CHILLIES_ID, 0, 3, "20230702155500"), "first.gkg.csv")];
  server = await startTestServer({ files: files(), clock, plans: ["build"] });
  withoutWatches = await startTestServer({ files: files(), clock, config: { watches: false } });
  connected = await connectClient(server);
});

afterAll(async () => {
  await connected?.close();
  await server?.close();
  await withoutWatches?.close();
});

async function call(client: Connected, name: string, args: Record<string, unknown>) {
  return client.client.callTool({ name, arguments: args });
}

async function refusal(client: Connected, name: string, args: Record<string, unknown>): Promise<ProtocolError> {
  const error = await call(client, name, args).then(
    () => undefined,
    (e: unknown) => e as ProtocolError,
  );
  if (error === undefined) throw new Error(`${name} was not refused`);
  return error;
}

describe("watch tools", () => {
  it("are listed, with delete marked destructive", async () => {
    const { tools } = await connected.client.listTools();
    const names = tools.map((t) => t.name);
    for (const tool of ["list_watches", "create_watch", "get_watch", "delete_watch", "watch_events"])
      expect(names).toContain(tool);
    const create = tools.find((t) => t.name === "create_watch");
    expect(create?.inputSchema.required).toEqual(["interval_minutes"]);
    expect(create?.inputSchema.properties).toHaveProperty("q");
    expect(create?.inputSchema.properties).not.toHaveProperty("from");
    expect(tools.find((t) => t.name === "delete_watch")?.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    });
  });

  it("create, list, get, events and delete, each 1 credit", async () => {
    const created = await call(connected, "create_watch", { q: CHILLIES_Q, interval_minutes: 15, label: "via MCP" });
    const watch = created.structuredContent as Record<string, unknown>;
    expect(watch).toMatchObject({ label: "via MCP", query: { q: CHILLIES_Q }, status: "active", credits_charged: 1 });
    expect(watch).toHaveProperty("webhook_secret", null);
    const id = String(watch.id);
    const list = (await call(connected, "list_watches", {})).structuredContent as {
      watches: Array<{ id: string }>;
      count: number;
    };
    expect(list.watches.map((w) => w.id)).toContain(id);
    expect((await call(connected, "get_watch", { id })).structuredContent).toMatchObject({ id, credits_charged: 1 });

    await server.container.watchJobs!.runner.runDue();
    const events = (await call(connected, "watch_events", { id, limit: 5 })).structuredContent as {
      events: Array<{ kind: string }>;
      next_after: string | null;
    };
    expect(events.events.map((e) => e.kind)).toEqual(["new_story"]);
    expect(events.next_after).toBeNull();
    expect((await call(connected, "delete_watch", { id })).structuredContent).toMatchObject({
      deleted: true,
      id,
      credits_charged: 1,
    });
    const gone = await call(connected, "get_watch", { id });
    expect(gone.isError).toBe(true);
    expect(gone.structuredContent).toMatchObject({ code: "not_found" });
  });

  it("answers the 400 family as -32602 with the REST body", async () => {
    const from = await refusal(connected, "create_watch", { q: "x", interval_minutes: 60, from: "2023-07-01" });
    expect(from.code).toBe(-32602);
    expect(from.data).toMatchObject({ code: "unknown_parameter", parameter: "from" });
    const floor = await refusal(connected, "create_watch", { q: "x", interval_minutes: 0 });
    expect(floor.data).toMatchObject({ code: "invalid_parameter", parameter: "interval_minutes" });
    const webhook = await refusal(connected, "create_watch", {
      q: "x",
      interval_minutes: 60,
      webhook_url: "https://10.0.0.1/in",
    });
    expect(webhook.data).toMatchObject({ code: "invalid_parameter", parameter: "webhook_url" });
  });

  it("reports another account's watch as not_found", async () => {
    const other = await connectClient(server, { key: server.keys.build });
    const created = (await call(connected, "create_watch", { q: "x", interval_minutes: 60 })).structuredContent as { id: string };
    for (const tool of ["get_watch", "watch_events", "delete_watch"]) {
      const result = await call(other, tool, { id: created.id });
      expect(result.isError, tool).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: "not_found" });
    }
    await other.close();
  });

  it("answers unsupported on a server that keeps no watch store", async () => {
    const client = await connectClient(withoutWatches);
    for (const [tool, args] of [
      ["list_watches", {}],
      ["create_watch", { q: "x", interval_minutes: 60 }],
      ["get_watch", { id: "wt_x" }],
    ] as const) {
      const result = await call(client, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(result.structuredContent).toMatchObject({ code: "unsupported", credits_charged: 0 });
    }
    await client.close();
    const rest = await withoutWatches.get("/watches");
    expect(rest.status).toBe(501);
    expect(await json(rest)).toMatchObject({ code: "unsupported" });
  });
});
