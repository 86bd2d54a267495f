import { ProtocolError } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { ApiError, ERROR_STATUS, type ErrorCode } from "../../shared/api-error.js";
import { McpRateLimited, toToolResult } from "./tool-result.js";

// The one outcome-to-MCP mapping, code by code (spec section 7, rule 5).

describe("toToolResult", () => {
  it("gives a success its body as structured content and a text copy", () => {
    const body = { total: 1, credits_charged: 1, attribution: "x" };
    const result = toToolResult({ ok: true, body, credits_charged: 1, headers: {} });
    expect(result.structuredContent).toEqual(body);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(body) }]);
    expect(result.isError).toBeUndefined();
  });

  it.each(Object.keys(ERROR_STATUS) as ErrorCode[])("maps %s by its status", (code) => {
    const error = new ApiError(code, `detail of ${code}`, { extra: 1 });
    const outcome = { ok: false as const, error, credits_charged: code === "not_found" ? 1 : 0, headers: {} };
    if (error.status === 400) {
      let thrown: unknown;
      try {
        toToolResult(outcome);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(ProtocolError);
      expect((thrown as ProtocolError).code).toBe(-32602);
      expect((thrown as ProtocolError).message).toBe(`detail of ${code}`);
      expect((thrown as ProtocolError).data).toEqual(error.toBody());
    } else if (code === "message_rate_limited") {
      expect(() => toToolResult(outcome)).toThrow(McpRateLimited);
    } else {
      const result = toToolResult(outcome);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toEqual({ ...error.toBody(), credits_charged: code === "not_found" ? 1 : 0 });
    }
  });
});
