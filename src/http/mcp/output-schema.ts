import type { Operation } from "../../app/operation.js";
import { ErrorBodySchema, EstimateResponseSchema } from "../../schemas/responses.js";
import { toJsonSchema, type JsonObject } from "./json-schema.js";
import { ACCOUNT_STATUS_TOOL, withSessionFieldSchemas } from "./session-fields.js";

// A tool's output schema must admit every structuredContent the tool returns,
// because clients validate it: SDK 1.x clients check it even on isError
// results. So it is the operation's response schema, or the price preview a
// priced operation returns with estimate=true, or the spec's error body that a
// tool error (isError: true) carries.

const PRICE_PREVIEW: JsonObject = {
  ...toJsonSchema(EstimateResponseSchema),
  description:
    "With estimate=true: the call's price instead of its result (credits range, breakdown, what is left, whether it would run). Costs 0.",
};

const ERROR_BODY: JsonObject = {
  ...toJsonSchema(ErrorBodySchema),
  description: "On a tool error (isError: true): the same JSON body the REST endpoint answers, plus credits_charged.",
};

export function outputSchemaFor(operation: Operation): JsonObject {
  let result = toJsonSchema(operation.response);
  if (operation.tool === ACCOUNT_STATUS_TOOL) result = withSessionFieldSchemas(result);
  const variants: JsonObject[] = [
    { ...result, description: `The ${operation.method} ${operation.path} response body.` },
    PRICE_PREVIEW,
    ERROR_BODY,
  ];
  // MCP requires an object at the root; the alternatives sit under it.
  return { type: "object", anyOf: variants };
}
