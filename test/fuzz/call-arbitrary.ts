import { Kind, type TSchema } from "@sinclair/typebox";
import fc from "fast-check";
import { SIGNAL_NAMES } from "../../src/domain/vocabularies/signals-v1.js";
import { MCP_PARAMETER_FORMS } from "../../src/http/mcp/parameter-forms.js";
import type { Operation } from "../../src/app/operation.js";

// Calls generated from the parameter registry: for each operation, arguments
// drawn from its declared parameters (valid values, boundary values, values of
// the wrong shape, empty values, long values, FTS5 and SQL syntax) plus names
// it does not take. A value is a typed JSON value, sent as is over MCP and as
// its text over REST; values are chosen so that the two forms are the same
// argument (a string is never given where a number is declared: over MCP the
// string "5" is refused while `limit=5` is not, by design).

/** A signal clause as MCP sends `signals` (src/http/mcp/parameter-forms.ts). */
export type Clause = { name: string; min?: number; max?: number };
export type Value = string | number | boolean | Clause[];

export interface Call {
  operation: Operation;
  args: Record<string, Value>;
  [fc.toStringMethod]?: () => string;
}

/** Real values from the index the fuzz runs on, so that valid calls find something. */
export interface Pool {
  articleIds: readonly string[];
  storyIds: readonly string[];
  words: readonly string[];
  sources: readonly string[];
}

const INHERITED = ["constructor", "toString", "hasOwnProperty", "valueOf", "isPrototypeOf", "toLocaleString"];
const LOOSE_NUMBERS = ["0x10", "0b11", "0o7", "1e1", "5.0", "+5", " 5", "5 ", "", "-", "NaN", "Infinity", "1_000", "٣"];
// "5.0" is a loose integer, but a decimal's plain text: a REST query string answers it (text is all a query
// carries), while an MCP argument of type number must be a JSON number. Both doors agree on the rest.
const LOOSE_DECIMALS = LOOSE_NUMBERS.filter((text) => text !== "5.0");
const HOSTILE_TEXT = [
  "",
  " ",
  "title:police",
  "NEAR(police shooting, 2)",
  "police*",
  "*",
  '"',
  '"police',
  "(police OR",
  "' OR 1=1 --",
  "'; DROP TABLE articles; --",
  "-police",
  "OR",
  "\u0000",
  "%",
  "😀",
  "İstanbul",
];

export function callArbitrary(operations: readonly Operation[], pool: Pool): fc.Arbitrary<Call> {
  return fc.oneof(
    ...operations.map((operation) =>
      argsArbitrary(operation, pool).map((args): Call => ({
        operation,
        args,
        // How a counterexample is printed: the tool and its arguments, not the whole operation.
        [fc.toStringMethod]: () => `${operation.tool} ${fc.stringify(args)}`,
      })),
    ),
  );
}

function argsArbitrary(operation: Operation, pool: Pool): fc.Arbitrary<Record<string, Value>> {
  // A POST's body fields are arguments like its parameters (MCP merges them; REST sends them as the JSON body).
  const declared = { ...operation.params.properties, ...operation.body?.properties } as Record<string, TSchema>;
  const pathParams = new Set(operation.pathParams);
  // Required body fields always, like path parameters, so calls reach past the first refusal.
  const always = [...operation.pathParams, ...(operation.body?.required ?? [])];
  const fields: Record<string, fc.Arbitrary<Value>> = {};
  for (const [name, schema] of Object.entries(declared)) {
    const values = valueArbitrary(name, schema, pool);
    // An empty path segment, `.` or `..` would name another path over REST (a different request), not this id.
    fields[name] = pathParams.has(name) ? values.filter((v) => v !== "" && v !== "." && v !== "..") : values;
  }
  // A few parameters per call, as a client sends: path parameters always, then up to three others.
  const optional = Object.keys(fields).filter((name) => !always.includes(name));
  const known = fc
    .subarray(optional, { maxLength: Math.min(3, optional.length) })
    .chain((chosen) =>
      fc.record(Object.fromEntries([...always, ...chosen].map((name) => [name, fields[name] as fc.Arbitrary<Value>]))),
    )
    .map((args) => args as Record<string, Value>);
  const unknownName = fc
    .oneof(
      fc.constantFrom(...INHERITED, "limt", "lang", "api_key", "Limit", "q ", "page", "sort_by", "offset[]"),
      fc.string({ minLength: 1, maxLength: 12 }),
    )
    // `__proto__` never reaches a tool over MCP (the SDK leaves it out), and a path parameter cannot be sent twice.
    .filter((name) => !Object.hasOwn(declared, name) && name !== "__proto__" && !pathParams.has(name));
  // One call in seven also sends a name the operation does not take.
  const unknown = fc.oneof(
    { weight: 6, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc.dictionary(unknownName, fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { minKeys: 1, maxKeys: 2 }),
    },
  );
  return fc.tuple(known, unknown).map(([args, extra]) => ({ ...args, ...extra }));
}

function valueArbitrary(name: string, schema: TSchema, pool: Pool): fc.Arbitrary<Value> {
  // A parameter with an MCP shape of its own is generated in that shape; REST gets its text form (fuzz-harness.ts).
  if (Object.hasOwn(MCP_PARAMETER_FORMS, name)) return clausesArbitrary();
  if (schema.type === "integer" || schema.type === "number") return integerArbitrary(schema);
  if (schema.type === "boolean") {
    // Text no door reads as a boolean (`TRUE` is one in a query string, like an enum value in any case, but a string over MCP).
    return fc.oneof({ weight: 8, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom("on", "1", "yes", "") });
  }
  const literals = enumValues(schema);
  if (literals.length > 0) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...literals) },
      { weight: 1, arbitrary: fc.constantFrom(...literals.map((v) => v.toUpperCase())) },
      { weight: 1, arbitrary: fc.constantFrom("", "none", "FULLY", " full") },
    );
  }
  return stringArbitrary(name, schema, pool);
}

/**
 * A fraction a client can send through both doors: to six places, so its text in a query string is plain
 * decimal (a double such as 9.3e-244 prints in exponent form, which a query string's number never takes).
 */
function decimal(min: number, max: number): fc.Arbitrary<number> {
  return fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .map((x) => Math.min(max, Math.max(min, Math.round(x * 1e6) / 1e6)));
}

function integerArbitrary(schema: TSchema): fc.Arbitrary<Value> {
  const min = typeof schema.minimum === "number" ? schema.minimum : -1_000;
  const max = typeof schema.maximum === "number" ? schema.maximum : 1_000_000;
  // Bounds of a number parameter need not be whole (radius_km from 0.1): integers within them, and fractions.
  const low = Math.ceil(min);
  const high = Math.floor(max);
  // Small values are the common case; offsets and budgets reach their bounds too.
  const usual = fc.integer({ min: low, max: Math.min(high, low + 120) });
  return fc.oneof(
    { weight: 10, arbitrary: usual },
    { weight: 2, arbitrary: fc.integer({ min: low, max: high }) },
    { weight: schema.type === "number" ? 2 : 0, arbitrary: decimal(min, max) },
    { weight: 2, arbitrary: fc.constantFrom(min - 1, max + 1, -1, 2 ** 31, Number.MAX_SAFE_INTEGER + 2) },
    { weight: 1, arbitrary: decimal(-10, 200) },
    { weight: 2, arbitrary: fc.constantFrom(...(schema.type === "number" ? LOOSE_DECIMALS : LOOSE_NUMBERS)) },
  );
}

function stringArbitrary(name: string, schema: TSchema, pool: Pool): fc.Arbitrary<Value> {
  const maxLength = typeof schema.maxLength === "number" ? schema.maxLength : 1_000;
  const realistic = realisticValues(name, pool);
  const pattern =
    typeof schema.pattern === "string" ? fc.stringMatching(new RegExp(schema.pattern)) : fc.string({ maxLength: 20 });
  return fc.oneof(
    { weight: realistic.length > 0 ? 10 : 0, arbitrary: fc.constantFrom(...(realistic.length > 0 ? realistic : ["x"])) },
    { weight: 3, arbitrary: pattern },
    { weight: 2, arbitrary: fc.string({ maxLength: 24, unit: "grapheme" }) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
    { weight: 1, arbitrary: fc.integer({ min: maxLength - 1, max: maxLength + 2 }).map((n) => "a".repeat(Math.max(1, n))) },
  );
}

/** Values that find something in the sample, by parameter name. */
function realisticValues(name: string, pool: Pool): string[] {
  switch (name) {
    case "q":
      return [...pool.words, ...pool.words.slice(0, 3).map((w, i) => `${w} ${pool.words[i + 1] ?? ""}`), '"police said"'];
    case "id":
      return [...pool.articleIds, ...pool.storyIds, "20230702153000-999999"];
    case "story_id":
      return [...pool.storyIds];
    case "source":
      return [...pool.sources, "https://www.bbc.co.uk/"];
    case "language":
      return ["eng", "fra", "spa", "ENG", "en"];
    case "publisher_country":
    case "country":
      return ["US", "UK", "gm", "USA"];
    case "from":
    case "to":
      return ["2023-07-01", "2023-07-02", "20230702153000", "2016-01-01", "0001-01-01", "2023-02-30", "2030-01-01"];
    case "mentioned_date":
      return ["2023-07-02", "2016-01-01", "2023-13-01"];
    case "cursor":
      return ["start", "start", "garbage"];
    case "facets":
      return ["source", "language,source", "person,topic,country", "nope", "source,source"];
    default:
      return [];
  }
}

function enumValues(schema: TSchema): string[] {
  if (typeof schema.const === "string") return [schema.const];
  if (schema[Kind] === "Union" && Array.isArray(schema.anyOf)) {
    return (schema.anyOf as TSchema[]).flatMap((s) => (typeof s.const === "string" ? [s.const] : []));
  }
  return [];
}

/** `signals` clauses: published names and a misspelt one, bounds whole, fractional, negative or missing. */
function clausesArbitrary(): fc.Arbitrary<Clause[]> {
  const bound = fc.oneof(fc.integer({ min: 0, max: 60 }), fc.double({ min: -5, max: 100, noNaN: true, noDefaultInfinity: true }));
  const clause = fc.record(
    { name: fc.constantFrom(...SIGNAL_NAMES, "finanse", "tone"), min: bound, max: bound },
    { requiredKeys: ["name"] },
  );
  return fc.array(clause, { minLength: 1, maxLength: 3 });
}
