import type { JSONObject, JSONValue } from "@modelcontextprotocol/server";
import type { TSchema } from "@sinclair/typebox";

/** A JSON object as it travels on the wire. */
export type JsonObject = JSONObject;

/**
 * A TypeBox schema as the plain JSON Schema a client receives. TypeBox keeps
 * its own markers in symbol keys, which JSON drops; `$id`s are removed at every
 * depth because clients compile each tool's schema separately, and validators
 * such as Ajv refuse a second schema that reuses an id (our response schemas
 * share `Article`, `Error`, ...).
 */
export function toJsonSchema(schema: TSchema): JsonObject {
  return stripIds(JSON.parse(JSON.stringify(schema)) as JSONValue) as JsonObject;
}

function stripIds(value: JSONValue): JSONValue {
  if (Array.isArray(value)) return value.map(stripIds);
  if (value === null || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key !== "$id") out[key] = stripIds(inner);
  }
  return out;
}
