import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { priceOf } from "../../domain/pricing.js";
import { defineOperation, toolOperations, type Operation } from "../../app/operation.js";
import { OPERATIONS } from "../../app/registry.js";
import { buildToolCatalog } from "./tool-catalog.js";

function operation(tool: string, free: boolean): Operation {
  return defineOperation({
    name: tool,
    tool,
    method: "GET",
    path: `/${tool}`,
    pathParams: [],
    summary: tool,
    description: `${tool} endpoint.`,
    free,
    params: Type.Object({ q: Type.String({ minLength: 1 }) }),
    response: Type.Object({ n: Type.Integer() }, { $id: "Shared" }),
    prepare: () => ({ price: priceOf({ operation: "free" }), execute: async () => ({ n: 1 }) }),
  });
}

describe("buildToolCatalog", () => {
  it("makes one closed tool per operation, required arguments kept", () => {
    const { tools } = buildToolCatalog([operation("a_tool", false), operation("b_tool", true)]);
    expect(tools.map((t) => t.name)).toEqual(["a_tool", "b_tool"]);
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["q"], additionalProperties: false });
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(["q", "estimate", "max_credits"]);
    expect(Object.keys(tools[1]?.inputSchema.properties ?? {})).toEqual(["q", "estimate", "max_credits"]);
  });

  it("declares the response, the price preview (free tools too) and the error body as outputs, without $id", () => {
    const { tools } = buildToolCatalog([operation("a_tool", false), operation("b_tool", true)]);
    const priced = tools[0]?.outputSchema as { type: string; anyOf: Array<Record<string, unknown>> };
    const free = tools[1]?.outputSchema as { anyOf: unknown[] };
    expect(priced.type).toBe("object");
    expect(priced.anyOf).toHaveLength(3);
    expect(priced.anyOf[1]).toMatchObject({ properties: { estimate: { const: true } } });
    expect(free.anyOf).toHaveLength(3);
    expect(JSON.stringify(tools)).not.toContain("$id");
  });

  it("refuses two operations that claim the same tool name", () => {
    expect(() => buildToolCatalog([operation("same", true), operation("same", true)])).toThrow(/same/);
  });

  it("builds the registry's catalog", () => {
    const catalog = buildToolCatalog(OPERATIONS);
    for (const op of toolOperations(OPERATIONS)) expect(catalog.operation(op.tool)).toBe(op);
  });
});
