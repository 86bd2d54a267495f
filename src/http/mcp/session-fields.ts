import type { JsonObject } from "./json-schema.js";

// account_status reports what the current MCP session used (spec: "MCP
// endpoint"). The fields exist only over MCP, so they are added here, to the
// tool's output schema and to its result, not to the REST /account body.

export const ACCOUNT_STATUS_TOOL = "account_status";

export interface SessionTotals {
  calls_this_session: number;
  credits_this_session: number;
}

const SESSION_FIELD_SCHEMAS: Record<keyof SessionTotals, JsonObject> = {
  calls_this_session: {
    type: "integer",
    minimum: 0,
    description: "Tool calls answered in this MCP session, this one included (see /docs/mcp.md for what a session is).",
  },
  credits_this_session: {
    type: "integer",
    minimum: 0,
    description: "Credits those calls were charged.",
  },
};

/** The account body's schema with the two session fields. */
export function withSessionFieldSchemas(schema: JsonObject): JsonObject {
  const properties = (schema.properties ?? {}) as JsonObject;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return {
    ...schema,
    properties: { ...properties, ...SESSION_FIELD_SCHEMAS },
    required: [...required, ...Object.keys(SESSION_FIELD_SCHEMAS)],
  };
}

/** The account body with the session fields, placed before `credits_charged` and `attribution`. */
export function withSessionTotals(body: Record<string, unknown>, totals: SessionTotals): Record<string, unknown> {
  const { credits_charged, attribution, ...rest } = body;
  return { ...rest, ...totals, credits_charged, attribution };
}
