import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { Operation } from "../../src/app/operation.js";
import { json, type TestServer } from "../support/test-server.js";

// The response schemas the server serves (/openapi.json for REST, each tool's
// outputSchema in /mcp/tools.json for MCP), compiled once, so the fuzz checks
// every 200 body against the document a generated client would be built from.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export class ServedSchemas {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: false, addUsedSchema: false }));
  private readonly rest = new Map<string, ValidateFunction>();
  private readonly tools = new Map<string, ValidateFunction>();

  private constructor(openapi: object, tools: Array<{ name: string; outputSchema?: object }>) {
    this.ajv.addSchema(withoutIds(openapi), "openapi.json");
    for (const tool of tools) if (tool.outputSchema) this.tools.set(tool.name, this.ajv.compile(withoutIds(tool.outputSchema)));
  }

  static async load(server: TestServer): Promise<ServedSchemas> {
    const openapi = await json<object>(await server.get("/openapi.json", null));
    const { tools } = await json<{ tools: Array<{ name: string; outputSchema?: object }> }>(
      await server.get("/mcp/tools.json", null),
    );
    return new ServedSchemas(openapi, tools);
  }

  /** Why a REST 2xx body does not match the schema /openapi.json declares for that status; undefined when it does. */
  restProblem(operation: Operation, status: number, body: unknown): string | undefined {
    const key = `${operation.method} ${operation.path} ${status}`;
    let validate = this.rest.get(key);
    if (validate === undefined) {
      const pointer = [
        "paths",
        operation.path,
        operation.method.toLowerCase(),
        "responses",
        String(status),
        "content",
        "application/json",
        "schema",
      ]
        .map((segment) => encodeURIComponent(segment.replaceAll("~", "~0").replaceAll("/", "~1")))
        .join("/");
      validate = this.ajv.compile({ $ref: `openapi.json#/${pointer}` });
      this.rest.set(key, validate);
    }
    return validate(body) ? undefined : this.ajv.errorsText(validate.errors);
  }

  /** Why a tool result's structuredContent does not match the tool's outputSchema; undefined when it does. */
  toolProblem(tool: string, content: unknown): string | undefined {
    const validate = this.tools.get(tool);
    if (validate === undefined) return `tool ${tool} declares no outputSchema`;
    return validate(content) ? undefined : this.ajv.errorsText(validate.errors);
  }
}

/** A copy without `$id`: the served documents repeat a named schema (CompactArticle) inline wherever it is used, which one validator would take for two schemas of one name. */
function withoutIds<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutIds) as T;
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "$id")
      .map(([key, v]) => [key, withoutIds(v)]),
  ) as T;
}
