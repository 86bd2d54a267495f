import { ProtocolError } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { getOk } from "../support/get-ok.js";
import { connectClient, type Connected } from "./mcp-client.js";

// The four graph tools over the official SDK client: each answers what its
// REST path answers for the same arguments (counts, credits), `entity_id` of
// shared_exposures takes an array, and the 400 family is JSON-RPC -32602.

type Body = Record<string, unknown>;

let server: TestServer;
let connected: Connected;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.bigquery, SAMPLE_FILES.spark] });
  connected = await connectClient(server);
});

afterAll(async () => {
  await connected?.close();
  await server?.close();
});

async function tool(name: string, args: Body): Promise<Body> {
  const result = await connected.client.callTool({ name, arguments: args });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as Body;
}

function rest(path: string): Promise<Body> {
  return getOk<Body>(server, path);
}

const TOOLS: Array<[string, Body, string]> = [
  [
    "related_entities",
    { entity_id: "person:joe biden", limit: 5, evidence: 2 },
    "/graph/related?entity_id=person:joe%20biden&limit=5&evidence=2",
  ],
  [
    "connection_path",
    { from_entity: "person:brandon scott", to_entity: "person:richard worley", max_hops: 2, evidence: 1 },
    "/graph/path?from_entity=person:brandon%20scott&to_entity=person:richard%20worley&max_hops=2&evidence=1",
  ],
  [
    "entity_network",
    { entity_id: "person:joe biden", limit_per_type: 3, compare_from: "2020-01-01", compare_to: "2020-12-31" },
    "/graph/network?entity_id=person:joe%20biden&limit_per_type=3&compare_from=2020-01-01&compare_to=2020-12-31",
  ],
  [
    "shared_exposures",
    { entity_id: ["person:joe biden", "person:donald trump"], facets: "source", evidence: 2 },
    "/graph/exposures?entity_id=person:joe%20biden&entity_id=person:donald%20trump&facets=source&evidence=2",
  ],
];

describe("graph tools", () => {
  it.each(TOOLS)("%s answers as its REST path does", async (name, args, path) => {
    const [viaTool, viaRest] = await Promise.all([tool(name, args), rest(path)]);
    expect(viaTool).toEqual(viaRest);
    expect(viaTool.credits_charged).toBeGreaterThan(0);
    expect(viaTool.note).toMatch(/Co-mention/);
    expect(viaTool.entity_resolution_version).toBe("er-v1");
  });

  it("are listed, read-only, with their parameters", async () => {
    const { tools } = await connected.client.listTools();
    for (const name of ["related_entities", "connection_path", "entity_network", "shared_exposures"]) {
      const found = tools.find((t) => t.name === name);
      expect(found?.annotations?.readOnlyHint, name).toBe(true);
      expect(found?.inputSchema.properties).toHaveProperty("max_credits");
    }
    const path = tools.find((t) => t.name === "connection_path");
    expect(path?.inputSchema.required).toEqual(["from_entity", "to_entity"]);
  });

  it("refuses two ids on related_entities as -32602 with the REST body", async () => {
    const error = await connected.client
      .callTool({ name: "related_entities", arguments: { entity_id: "person:joe biden,person:donald trump" } })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect(((error as ProtocolError).data as Body).code).toBe("invalid_parameter");
  });
});
