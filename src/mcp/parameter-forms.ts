import type { Static, TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { Operation } from "../operations/operation.js";
import { packSignalClauses, SIGNAL_CLAUSES_EXPECTED, SignalClauses } from "../schemas/signal-clauses.js";
import type { CallInput } from "../operations/run-operation.js";
import { ApiError } from "../shared/api-error.js";

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
 * into their REST form; everything else (including undeclared names, which the
 * validator names) passes through as parameters.
 */
export function toOperationInput(
  operation: Operation,
  args: Record<string, unknown>,
  forms: Readonly<Record<string, McpParameterForm>> = MCP_PARAMETER_FORMS,
): Pick<CallInput, "params" | "body"> {
  const declared = operation.params.properties as Record<string, TSchema>;
  const bodyFields = operation.body?.properties ?? {};
  const params: Record<string, unknown> = {};
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (Object.hasOwn(bodyFields, name)) {
      body[name] = value;
      continue;
    }
    const form = Object.hasOwn(declared, name) && Object.hasOwn(forms, name) ? forms[name] : undefined;
    if (form === undefined || value === undefined) {
      params[name] = value;
      continue;
    }
    if (!Value.Check(form.schema, value)) {
      throw new ApiError("invalid_parameter", `'${name}' cannot be ${JSON.stringify(value)}: over MCP it is ${form.expected}.`, {
        parameter: name,
      });
    }
    params[name] = form.toRest(value);
  }
  return { params, body: operation.body === undefined ? undefined : body };
}
