import type { TObject, TSchema } from "@sinclair/typebox";
import type { Operation } from "../app/operation.js";
import { ErrorBodySchema, EstimateResponseSchema, WatchWebhookSchema } from "../schemas/responses.js";
import { CONTRACT_VERSION } from "../shared/version.js";

// OpenAPI 3.1 from the operations registry: the same parameter declarations
// that validate requests.

type JsonObject = Record<string, unknown>;

const ERROR_RESPONSES: Record<string, string> = {
  "400":
    "Invalid or unknown parameter (`invalid_parameter`, `unknown_parameter`), checked after the key. Integers are decimal digits; empty values are refused. Never charged.",
  "401": "Missing or invalid key (`unauthorized`).",
  "402": "Account suspended (`suspended`).",
  "429": "Credit or message rate limits. Carries `retry-after`.",
  "500": "Internal failure; nothing leaks.",
  "503": "`upstream_unavailable`: the index could not be read. Not evidence of absence.",
};

const PREVIEW_NOTE = "`estimate: true`, the credit range, its breakdown, what is left and `would_run`; costs 0";

export function buildOpenApi(operations: readonly Operation[]): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const components: Record<string, TSchema> = {
    Error: ErrorBodySchema,
    WatchWebhook: WatchWebhookSchema,
    EstimateResponse: EstimateResponseSchema,
  };
  for (const op of operations) {
    const responseName = String(op.response.$id ?? `${op.name}Response`);
    components[responseName] = op.response;
    const result = { $ref: `#/components/schemas/${responseName}` };
    const preview = { $ref: "#/components/schemas/EstimateResponse" };
    // Every operation answers estimate=true with the price preview, at 200 (a preview creates nothing).
    const responses: JsonObject =
      op.stream === "ndjson"
        ? {
            "200": {
              description: `OK: one JSON value per line, each line one ExportLine; with \`estimate=true\` the price preview as JSON (${PREVIEW_NOTE}).`,
              content: { "application/x-ndjson": { schema: result }, "application/json": { schema: preview } },
            },
          }
        : op.status === 200
          ? {
              "200": {
                description: `OK: the result, or with \`estimate=true\` the price preview (${PREVIEW_NOTE}).`,
                content: { "application/json": { schema: { oneOf: [result, preview] } } },
              },
            }
          : {
              [String(op.status)]: { description: "Created", content: { "application/json": { schema: result } } },
              "200": {
                description: `With \`estimate=true\`: the price preview (${PREVIEW_NOTE}); nothing is created.`,
                content: { "application/json": { schema: preview } },
              },
            };
    if (op.pathParams.length > 0)
      responses["404"] = {
        description: "`not_found`: the id does not exist. Safe to cache. An id outside the plan's reach or the window is 400.",
      };
    for (const [status, description] of Object.entries(ERROR_RESPONSES)) {
      responses[status] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    }
    // Several methods on one path (GET and POST /watches) share its entry.
    paths[op.path] = {
      ...paths[op.path],
      [op.method.toLowerCase()]: {
        operationId: op.name,
        summary: op.summary,
        description: op.description,
        ...(op.tool !== undefined && op.stream === undefined ? { "x-mcp-tool": op.tool } : {}),
        parameters: parametersOf(op),
        ...(op.body ? { requestBody: requestBodyOf(op.body) } : {}),
        responses,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "NewsIndex API",
      version: CONTRACT_VERSION,
      description:
        "Ranked news search over GDELT GKG 2.1 metadata. Every path is also served under /v1. A path that names no endpoint is 400 `invalid_parameter` (not 404, which is kept for ids). See /llms.txt and /docs/*.md.",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }, { bearer: [] }],
    paths,
    webhooks: WATCH_WEBHOOKS,
    components: {
      schemas: stripIds(components),
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
  };
}

/** What a watch's webhook receives (spec 02, Webhook delivery): a signed POST of a `WatchWebhook` body. */
const WATCH_WEBHOOKS: JsonObject = {
  watchEvent: {
    post: {
      summary: "A watch event, POSTed to the watch's webhook_url",
      description:
        "One POST per recorded event, retried after 1, 5 and 25 minutes until a 2xx. Verify `x-service-signature` (`sha256=` and the hex HMAC-SHA256 of the raw body under the watch's `webhook_secret`) before trusting the body; deduplicate on `x-service-delivery`. See /docs/watches.md.",
      parameters: [
        {
          name: "x-service-event",
          in: "header",
          required: true,
          schema: { type: "string", enum: ["new_story", "story_growth"] },
        },
        { name: "x-service-delivery", in: "header", required: true, schema: { type: "string" } },
        {
          name: "x-service-signature",
          in: "header",
          required: true,
          schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" },
        },
      ],
      requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/WatchWebhook" } } } },
      responses: { "2XX": { description: "Received. Any other answer (or none within 10 s) is a failed attempt." } },
    },
  },
};

function parametersOf(op: Operation): JsonObject[] {
  const required = new Set(op.params.required ?? []);
  return Object.entries(op.params.properties as Record<string, TSchema>).map(([name, schema]) => {
    const { description, ...rest } = plain(schema);
    return {
      name,
      in: op.pathParams.includes(name) ? "path" : "query",
      required: op.pathParams.includes(name) || required.has(name),
      description,
      schema: rest,
    };
  });
}

/** The JSON body, declared with the same schemas as parameters. */
function requestBodyOf(body: TObject): JsonObject {
  return { required: true, content: { "application/json": { schema: plain(body) } } };
}

/** A TypeBox schema as plain JSON (TypeBox keeps its own markers in symbol keys, which JSON drops). */
function plain(schema: TSchema): JsonObject {
  return JSON.parse(JSON.stringify(schema)) as JsonObject;
}

function stripIds(schemas: Record<string, TSchema>): Record<string, JsonObject> {
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => {
      const { $id: _id, ...rest } = plain(schema);
      return [name, rest];
    }),
  );
}
