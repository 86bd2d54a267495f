import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { priceOf } from "../../domain/pricing.js";
import { defineOperation } from "../../app/operation.js";
import { ApiError } from "../../shared/api-error.js";
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
  prepare: () => ({ price: priceOf({ operation: "free" }), execute: async () => ({}) }),
});

describe("toOperationInput", () => {
  it("packs the MCP signals array into REST clauses and passes the rest through", () => {
    expect(toOperationInput(withSignals, { signals: [{ name: "a", min: 1 }, { name: "b" }], limit: 5 })).toEqual({
      params: { signals: "a:1:,b::", limit: 5 },
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
    expect(toOperationInput(create, { label: "x", tags: ["a"], signals: [{ name: "a" }] })).toEqual({
      params: { signals: "a::" },
      body: { label: "x", tags: ["a"] },
    });
    expect(toOperationInput(create, { limit: 1 })).toEqual({ params: { limit: 1 }, body: {} });
  });

  it("refuses every undeclared argument, __proto__ included, with a hint from parameters and body fields alike", () => {
    const create = defineOperation({
      ...withSignals,
      method: "POST",
      sideEffects: true,
      body: Type.Object({ language: Type.Optional(Type.String()) }),
    });
    const refusal = (args: Record<string, unknown>): ApiError => {
      try {
        toOperationInput(create, args);
      } catch (error) {
        if (error instanceof ApiError) return error;
        throw error;
      }
      throw new Error("accepted");
    };
    expect(refusal({ lang: "eng" })).toMatchObject({
      code: "unknown_parameter",
      extras: { parameter: "lang", suggestion: "language" },
    });
    expect(refusal(JSON.parse('{"__proto__": {"limit": 1}}') as Record<string, unknown>)).toMatchObject({
      code: "unknown_parameter",
      extras: { parameter: "__proto__" },
    });
  });
});
