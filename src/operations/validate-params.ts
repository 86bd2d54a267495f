import { Kind, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ApiError } from "../shared/api-error.js";
import { closestName } from "../shared/closest-name.js";
import type { Operation } from "./operation.js";

// Checks raw parameters (query-string strings, or MCP JSON values) against an
// operation's declared parameters, before any work: unknown names first, then
// each value. Returns typed values with defaults applied.

export function validateParams(operation: Operation, raw: Record<string, unknown>): Record<string, unknown> {
  const declared = operation.params.properties as Record<string, TSchema>;
  const names = Object.keys(declared);
  for (const name of Object.keys(raw)) {
    if (!(name in declared)) {
      const suggestion = closestName(name, names);
      throw new ApiError(
        "unknown_parameter",
        `${operation.method} ${operation.path} does not take the parameter '${name}'. Did you mean '${suggestion}'? Valid parameters: ${names.join(", ")}.`,
        { parameter: name, suggestion },
      );
    }
  }
  const required = new Set(operation.params.required ?? []);
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(declared)) {
    const given = raw[name];
    if (given === undefined || given === "") {
      if (required.has(name)) throw invalid(name, schema, "is required");
      if (schema.default !== undefined) values[name] = schema.default;
      continue;
    }
    if (Array.isArray(given) && schema.type !== "array")
      throw invalid(name, schema, `was given ${given.length} times; give it once`);
    const value = coerce(schema, given);
    if (!Value.Check(schema, value)) throw invalid(name, schema, `cannot be ${JSON.stringify(given)}`);
    values[name] = value;
  }
  return values;
}

/** Query strings carry text; numbers and booleans are read from it; enum values match whatever their case. */
function coerce(schema: TSchema, given: unknown): unknown {
  if (typeof given !== "string") return given;
  const literal = enumValues(schema).find((value) => value.toLowerCase() === given.toLowerCase());
  if (literal !== undefined) return literal;
  if (schema.type === "integer" || schema.type === "number") {
    const n = given.trim() === "" ? Number.NaN : Number(given);
    return Number.isFinite(n) ? n : given;
  }
  if (schema.type === "boolean") return given === "true" ? true : given === "false" ? false : given;
  return given;
}

function invalid(name: string, schema: TSchema, problem: string): ApiError {
  return new ApiError("invalid_parameter", `'${name}' ${problem}: expected ${expected(schema)}.`, { parameter: name });
}

function enumValues(schema: TSchema): string[] {
  if (typeof schema.const === "string") return [schema.const];
  if (schema[Kind] === "Union" && Array.isArray(schema.anyOf)) {
    return (schema.anyOf as TSchema[]).flatMap((s) => (typeof s.const === "string" ? [s.const] : []));
  }
  return [];
}

/** A human phrase for what a parameter accepts, read from its schema. */
export function expected(schema: TSchema): string {
  if (typeof schema["x-expected"] === "string") return schema["x-expected"];
  if (schema.const !== undefined) return `one of ${String(schema.const)}`;
  if (schema[Kind] === "Union" && Array.isArray(schema.anyOf)) {
    return `one of ${(schema.anyOf as TSchema[]).map((s) => String(s.const)).join(", ")}`;
  }
  if (schema.type === "integer" || schema.type === "number") {
    const what = schema.type === "integer" ? "an integer" : "a number";
    if (schema.minimum !== undefined && schema.maximum !== undefined)
      return `${what} from ${schema.minimum} to ${schema.maximum}`;
    if (schema.minimum !== undefined) return `${what} of at least ${schema.minimum}`;
    return what;
  }
  if (schema.type === "boolean") return "true or false";
  if (schema.type === "string") {
    const max = schema.maxLength !== undefined ? ` of at most ${schema.maxLength} characters` : "";
    return `a non-empty string${max}`;
  }
  return "a valid value";
}
