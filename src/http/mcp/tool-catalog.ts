import type { TSchema } from "@sinclair/typebox";
import type { Tool } from "@modelcontextprotocol/server";
import { toolOperations, type Operation } from "../../app/operation.js";
import { toJsonSchema, type JsonObject } from "./json-schema.js";
import { outputSchemaFor } from "./output-schema.js";
import { mcpParameterSchema } from "./parameter-forms.js";

// Tools are generated from the operations registry, never written by hand: a
// new REST endpoint becomes a tool by being declared once. A tool's arguments
// are its operation's parameters (query and path), closed with
// additionalProperties: false; its output schema is the response schema.

export interface ToolCatalog {
  /** What tools/list and /mcp/tools.json serve, in registry order. */
  tools: Tool[];
  /** The operation behind a tool name. */
  operation(tool: string): Operation | undefined;
  names: string[];
  /** Every operation served, for hints naming the tools that take an argument. */
  operations: readonly Operation[];
}

export function buildToolCatalog(all: readonly Operation[]): ToolCatalog {
  const operations = toolOperations(all);
  const byName = new Map<string, Operation>();
  for (const operation of operations) {
    if (byName.has(operation.tool)) throw new Error(`two operations declare the MCP tool ${operation.tool}`);
    byName.set(operation.tool, operation);
  }
  const tools = operations.map(toolFor);
  return { tools, operation: (name) => byName.get(name), names: [...byName.keys()], operations };
}

function toolFor(operation: Operation & { tool: string }): Tool {
  return {
    name: operation.tool,
    title: operation.summary,
    description: `${operation.description} (REST: ${operation.method} ${operation.path}.)`,
    inputSchema: inputSchemaFor(operation),
    outputSchema: outputSchemaFor(operation),
    annotations: { title: operation.summary, ...effectHints(operation), openWorldHint: false },
  };
}

/** What a client may assume before calling: read-only, or else whether a call removes something and may be repeated. */
function effectHints(operation: Operation): NonNullable<Tool["annotations"]> {
  if (!operation.sideEffects) return { readOnlyHint: true };
  const deletes = operation.method === "DELETE";
  return { readOnlyHint: false, destructiveHint: deletes, idempotentHint: deletes };
}

/** Path, query and body fields in one object: a tool call has one set of arguments. */
function inputSchemaFor(operation: Operation): Tool["inputSchema"] {
  const declared = operation.params.properties as Record<string, TSchema>;
  const properties: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(declared)) properties[name] = toJsonSchema(mcpParameterSchema(name, schema));
  for (const [name, schema] of Object.entries(operation.body?.properties ?? {})) properties[name] = toJsonSchema(schema);
  const required = [...(operation.params.required ?? []), ...(operation.body?.required ?? [])];
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required: [...required] } : {}),
    additionalProperties: false,
  };
}
