import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { priceOf } from "../domain/pricing.js";
import { defineOperation } from "../operations/operation.js";
import { ApiError } from "../shared/api-error.js";
import { toOperationInput } from "./parameter-forms.js";

const withSignals = defineOperation({
  name: "withSignals",
  tool: "with_signals",
  method: "GET",
  path: "/with-signals",
  pathParams: [],
  summary: "s",
  description: "s",
  free: true,
  params: Type.Object({ signals: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer()) }),
  response: Type.Object({}),
  plan: () => ({ price: priceOf({ operation: "free" }), execute: async () => ({}) }),
});

describe("toOperationInput", () => {
  it("packs the MCP signals array into REST clauses and passes the rest through", () => {
    expect(toOperationInput(withSignals, { signals: [{ name: "a", min: 1 }, { name: "b" }], limit: 5, other: 1 })).toEqual({
      params: { signals: "a:1:,b::", limit: 5, other: 1 },
      body: undefined,
    });
  });

  it("refuses an MCP signals value of another shape as invalid_parameter", () => {
    expect(() => toOperationInput(withSignals, { signals: [{ name: "a", min: "1" }] })).toThrow(ApiError);
  });

  it("sends the arguments that name body fields as the body, JSON values untouched", () => {
    const create = defineOperation({
      ...withSignals,
      method: "POST",
      sideEffects: true,
      body: Type.Object({ label: Type.Optional(Type.String()), tags: Type.Optional(Type.Array(Type.String())) }),
    });
    expect(toOperationInput(create, { label: "x", tags: ["a"], signals: [{ name: "a" }], other: 1 })).toEqual({
      params: { signals: "a::", other: 1 },
      body: { label: "x", tags: ["a"] },
    });
    expect(toOperationInput(create, { limit: 1 })).toEqual({ params: { limit: 1 }, body: {} });
  });
});
