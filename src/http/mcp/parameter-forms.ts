import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Operation } from "../../app/operation.js";
import { packSignalClauses, SIGNAL_CLAUSES_EXPECTED, SignalClauses } from "../../schemas/signal-clauses.js";
import type { CallInput } from "../../app/run-operation.js";
import { ApiError, invalidParameter } from "../../shared/api-error.js";
import { endpointsTaking, inWords } from "../../app/taken-elsewhere.js";
import { closestName } from "../../shared/closest-name.js";
import { quoteName, quoteValue } from "../../shared/quote.js";

// Where a parameter travels in a different shape over MCP than in a query
// string (spec: "`signals` ... Over MCP it is an array of {name, min, max}"),
// the MCP shape is declared here once, keyed by parameter name. Any operation
// that declares the parameter gets the MCP shape in its tool schema, and the
// value is packed back into the REST form before the one validator runs, so
// REST and MCP share every rule (unknown_signal, bounds, ...).

export interface McpParameterForm {
  /** The argument's schema in tools/list. */
  schema: TSchema;
  /** What the schema accepts, for the invalid_parameter detail. */
  expected: string;
  /** The REST value for a checked MCP value. */
  toRest(value: unknown): string;
}

export const MCP_PARAMETER_FORMS: Readonly<Record<string, McpParameterForm>> = {
  signals: {
    schema: SignalClauses,
    expected: SIGNAL_CLAUSES_EXPECTED,
    toRest: (value) => packSignalClauses(value as Static<typeof SignalClauses>),
  },
};

/** The schema a tool declares for one of its operation's parameters. */
export function mcpParameterSchema(name: string, declared: TSchema): TSchema {
  return MCP_PARAMETER_FORMS[name]?.schema ?? declared;
}

/**
 * Tool arguments as the raw parameters and body `runOperation` validates:
 * arguments that name body fields make the body, as the JSON values they are;
 * MCP-shaped parameter values are checked against their MCP schema and packed
 * into their REST form. A tool declares no additional properties, so an
 * argument that is neither a parameter nor a body field is `unknown_parameter`
 * here, its hint drawn from the tool's whole argument set (body fields too).
 * Own names only, into objects without a prototype: `__proto__` is an
 * argument like any other, and undeclared.
 */
export function toOperationInput(
  operation: Operation,
  args: Record<string, unknown>,
  served: readonly Operation[] = [],
  forms: Readonly<Record<string, McpParameterForm>> = MCP_PARAMETER_FORMS,
): Pick<CallInput, "params" | "body"> {
  const declared = operation.params.properties as Record<string, TSchema>;
  const bodyFields = operation.body?.properties ?? {};
  const params: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const body: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(args)) {
    const value = args[name];
    if (Object.hasOwn(bodyFields, name)) {
      body[name] = value;
      continue;
    }
    if (!Object.hasOwn(declared, name)) throw unknownArgument(operation, name, served);
    const form = Object.hasOwn(forms, name) ? forms[name] : undefined;
    if (form === undefined || value === undefined) {
      params[name] = value;
      continue;
    }
    if (!Value.Check(form.schema, value)) {
      throw invalidParameter(name, `'${name}' cannot be ${quoteValue(value)}: over MCP it is ${form.expected}.`);
    }
    params[name] = form.toRest(value);
  }
  return { params, body: operation.body === undefined ? undefined : body };
}

/**
 * The name a `__proto__` argument travels under through the SDK, which copies
 * arguments into fresh objects where that key would set the prototype and
 * vanish: renamed before (`keepProtoArguments`), refused by its own name here.
 */
export const PROTO_ARGUMENT = "\u0000__proto__";

/** Renames every tools/call's own `__proto__` argument in a parsed body to PROTO_ARGUMENT, in place. */
export function keepProtoArguments(body: unknown): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: { arguments?: unknown } };
    const args = typeof params === "object" && params !== null ? params.arguments : undefined;
    if (method !== "tools/call" || typeof args !== "object" || args === null) continue;
    const proto = Object.getOwnPropertyDescriptor(args, "__proto__");
    if (proto === undefined) continue;
    Object.defineProperty(args, PROTO_ARGUMENT, {
      value: proto.value as unknown,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    delete (args as Record<string, unknown>)["__proto__"];
  }
}

function unknownArgument(operation: Operation, given: string, served: readonly Operation[]): ApiError {
  const name = given === PROTO_ARGUMENT ? "__proto__" : given;
  const names = [...Object.keys(operation.params.properties), ...Object.keys(operation.body?.properties ?? {})];
  const suggestion = closestName(name, names);
  // A name another tool takes was most likely meant for it: said first, as REST says it (app/taken-elsewhere.ts).
  const homes = endpointsTaking(name, operation, served);
  const taken = homes.length > 0 ? ` It is taken by ${inWords(homes)}.` : "";
  return new ApiError(
    "unknown_parameter",
    `The tool ${operation.tool} does not take the argument ${quoteName(name)}.${taken} Did you mean '${suggestion}'? Arguments: ${names.join(", ")}.`,
    { parameter: name.slice(0, 100), suggestion },
  );
}
