import { Kind, type TObject, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { ApiError, invalidParameter, type ErrorCode } from "../shared/api-error.js";
import { closestName } from "../shared/closest-name.js";
import { quoteName, quoteValue } from "../shared/quote.js";
import type { Operation } from "./operation.js";
import { endpointsTaking, inWords } from "./taken-elsewhere.js";

// Checks raw parameters (query-string strings, or MCP JSON values) and a JSON
// body against an operation's declarations, before any work: unknown names
// first, then each value. Returns typed values with defaults applied. Body
// fields take the same rules as parameters; JSON values are read as they are.

/** How values arrive: as query-string text (REST), or as typed JSON values (MCP arguments, request bodies). */
export type ParamsForm = "query" | "json";

/** `served`: the endpoints served beside this one, named in the hint when one of them takes an unknown name. */
export function validateParams(
  operation: Operation,
  raw: Record<string, unknown>,
  form: ParamsForm,
  served: readonly Operation[] = [],
): Record<string, unknown> {
  const where = `${operation.method} ${operation.path}`;
  return validateFields(operation.params, raw, form, {
    none: `${where} takes no parameters`,
    unknown: `${where} does not take the parameter`,
    valid: "Valid parameters",
    elsewhere: (name) => endpointsTaking(name, operation, served),
  });
}

/** The body's fields, checked like parameters; an operation without a body takes none. */
export function validateBody(operation: Operation, body: unknown, served: readonly Operation[] = []): Record<string, unknown> {
  const where = `${operation.method} ${operation.path}`;
  if (operation.body === undefined) {
    if (body === undefined) return {};
    throw new ApiError("invalid_parameter", `${where} takes no request body.`);
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ApiError("invalid_parameter", `The body of ${where} must be a JSON object of its fields.`);
  return validateFields(operation.body, body as Record<string, unknown>, "json", {
    none: `The body of ${where} takes no fields`,
    unknown: `The body of ${where} does not take the field`,
    valid: "Valid fields",
    elsewhere: (name) => endpointsTaking(name, operation, served),
  });
}

interface Wording {
  none: string;
  unknown: string;
  valid: string;
  /** Other endpoints taking a name this one does not. */
  elsewhere: (name: string) => string[];
}

function validateFields(
  fields: TObject,
  raw: Record<string, unknown>,
  form: ParamsForm,
  wording: Wording,
): Record<string, unknown> {
  const declared = fields.properties as Record<string, TSchema>;
  const names = Object.keys(declared);
  for (const name of Object.keys(raw)) {
    // Own names only: `constructor`, `toString` or `__proto__` are not parameters because every object inherits them.
    if (!Object.hasOwn(declared, name)) {
      const suggestion = closestName(name, names);
      const homes = wording.elsewhere(name);
      // A name another endpoint takes was most likely meant for it: say so before the nearest spelling here.
      const taken = homes.length > 0 ? ` It is taken by ${inWords(homes)}.` : "";
      throw new ApiError(
        "unknown_parameter",
        names.length === 0
          ? `${wording.none}; ${quoteName(name)} is not one.${taken}`
          : homes.length > 0
            ? `${wording.unknown} ${quoteName(name)}.${taken} The closest name here is '${suggestion}'. ${wording.valid}: ${names.join(", ")}.`
            : `${wording.unknown} ${quoteName(name)}. Did you mean '${suggestion}'? ${wording.valid}: ${names.join(", ")}.`,
        { parameter: name.slice(0, 100), suggestion },
      );
    }
  }
  const required = new Set(fields.required ?? []);
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(declared)) {
    const given = Object.hasOwn(raw, name) ? raw[name] : undefined;
    if (given === undefined) {
      if (required.has(name)) throw invalid(name, schema, "is required");
      if (schema.default !== undefined) values[name] = schema.default;
      continue;
    }
    // An empty value is refused, not read as absent: `source=` is more likely a lost value than a wish for every source.
    if (given === "") throw invalid(name, schema, "is empty; give a value or leave the parameter out");
    if (form === "query" && Array.isArray(given) && !acceptsArray(schema))
      throw invalid(name, schema, `was given ${given.length} times; give it once`);
    const value = form === "query" ? fromQueryText(schema, given) : fromJson(schema, given);
    if (!Value.Check(schema, value)) throw refusal(name, schema, given);
    values[name] = value;
  }
  return values;
}

/** Decimal digits, optionally signed: `0x10`, `1e1`, `5.0` or ` 5` are not integers here. */
const INTEGER_TEXT = /^-?\d{1,16}$/;
/** Decimal notation: no exponent, no hex, no blank. */
const NUMBER_TEXT = /^-?\d{1,16}(\.\d{1,16})?$/;

/** Query strings carry text; numbers are read from it strictly; enum values and booleans match whatever their case. */
function fromQueryText(schema: TSchema, given: unknown): unknown {
  if (typeof given !== "string") return given;
  const literal = matchingEnumValue(schema, given);
  if (literal !== undefined) return literal;
  if (schema.type === "integer") return INTEGER_TEXT.test(given) ? Number(given) : given;
  if (schema.type === "number") return NUMBER_TEXT.test(given) ? Number(given) : given;
  // Booleans, like enum values, whatever their case: `estimate=TRUE` as `view=COMPACT`.
  if (schema.type === "boolean") return given.toLowerCase() === "true" ? true : given.toLowerCase() === "false" ? false : given;
  return given;
}

/** JSON values are typed: the string "5" is not an integer, nor "true" a boolean. Enum values still match whatever their case. */
function fromJson(schema: TSchema, given: unknown): unknown {
  return typeof given === "string" ? (matchingEnumValue(schema, given) ?? given) : given;
}

/** A parameter that may be repeated in a query string: an array, or a union with an array member. */
function acceptsArray(schema: TSchema): boolean {
  if (schema.type === "array") return true;
  return schema[Kind] === "Union" && Array.isArray(schema.anyOf) && (schema.anyOf as TSchema[]).some((s) => s.type === "array");
}

function matchingEnumValue(schema: TSchema, given: string): string | undefined {
  return enumValues(schema).find((value) => value.toLowerCase() === given.toLowerCase());
}

/**
 * A value its declaration refuses: `invalid_parameter`, naming the closest
 * value of an enum, or the code the declaration names for it (`x-refusal`:
 * an unknown signal is `unknown_signal`, spec section 4 rule 2).
 */
function refusal(name: string, schema: TSchema, given: unknown): ApiError {
  const values = enumValues(schema);
  const hint = values.length > 0 && typeof given === "string" ? ` Did you mean '${closestName(given, values)}'?` : "";
  const code = typeof schema["x-refusal"] === "string" ? (schema["x-refusal"] as ErrorCode) : "invalid_parameter";
  return new ApiError(code, `'${name}' cannot be ${quoteValue(given)}: expected ${expected(schema)}.${hint}`, {
    parameter: name,
  });
}

function invalid(name: string, schema: TSchema, problem: string): ApiError {
  return invalidParameter(name, `'${name}' ${problem}: expected ${expected(schema)}.`);
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
