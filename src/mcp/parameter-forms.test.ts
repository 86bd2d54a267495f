import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { priceOf } from "../domain/pricing.js";
import { defineOperation } from "../operations/operation.js";
import { ApiError } from "../shared/api-error.js";
import { toOperationParams } from "./parameter-forms.js";

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

describe("toOperationParams", () => {
  it("packs the MCP signals array into REST clauses and passes the rest through", () => {
    expect(toOperationParams(withSignals, { signals: [{ name: "a", min: 1 }, { name: "b" }], limit: 5, other: 1 })).toEqual({
      signals: "a:1:,b::",
      limit: 5,
      other: 1,
    });
  });

  it("refuses an MCP signals value of another shape as invalid_parameter", () => {
    expect(() => toOperationParams(withSignals, { signals: [{ name: "a", min: "1" }] })).toThrow(ApiError);
  });
});
