import { ProtocolError } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { MCP_PARAMETER_FORMS } from "../../src/http/mcp/parameter-forms.js";
import { toolOperations } from "../../src/app/operation.js";
import { OPERATIONS } from "../../src/app/registry.js";
import type { Caller } from "../../src/usecases/accounts/account-service.js";
import { ERROR_STATUS, type ErrorCode } from "../../src/shared/api-error.js";
import { connectClient, type Connected } from "../mcp/mcp-client.js";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { callArbitrary, type Call, type Pool, type Value } from "./call-arbitrary.js";
import { ServedSchemas } from "./served-schemas.js";

// Property-based fuzzing of every operation, over REST and over MCP with the
// official SDK client, against a real server on the real sample. Each
// generated call is sent through both doors, each door on a tenant of its
// own whose buckets start the call full (the test clock moves a minute per
// call), and these properties must hold:
//   1. no 5xx;
//   2. every status is one the spec's table names;
//   3. every 4xx carries a spec `code` (whose status is that status) and a `detail`;
//   4. a 400 (any refusal) is never charged: the tenant's counters are unchanged;
//   5. the same arguments give the same outcome (status and code) over REST and MCP;
//   6. every 200 body matches the response schema the server serves for it
//      (/openapi.json over REST, the tool's outputSchema over MCP).

const CALLS_PER_CLIENT = 1_000;
const PROGRESS_EVERY = 2_500;

/** Statuses the spec names (errors table, other statuses). */
const SPEC_STATUSES = new Set([200, 400, 401, 402, 404, 408, 413, 429, 500, 503]);

export interface Outcome {
  status: number;
  code?: string;
  detail?: string;
  /** Why a 200 body does not match the schema the server serves for it. */
  schemaProblem?: string;
}

export interface FuzzStats {
  cases: number;
  requests: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, number>;
}

export interface FuzzTarget {
  server: TestServer;
  mcp: Connected;
  clock: TestClock;
  restKey: string;
  restCaller: Caller;
  mcpCaller: Caller;
  pool: Pool;
  /** The response schemas the server serves; loaded by the first run. */
  schemas?: ServedSchemas;
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

export async function startFuzzTarget(): Promise<FuzzTarget> {
  const clock = new TestClock(Date.now());
  const server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016], clock });
  const restKey = server.key;
  const mcpKey = (await server.container.accounts.issueKey("fuzz-mcp", "archive")).key;
  const mcp = await connectClient(server, { key: mcpKey });
  const found = await json<{ results: Array<{ id: string; story_id: string; source: string }> }>(
    await server.get("/search?q=police&limit=20"),
  );
  const pool: Pool = {
    articleIds: found.results.slice(0, 6).map((r) => r.id),
    storyIds: [...new Set(found.results.map((r) => r.story_id))].slice(0, 6),
    sources: [...new Set(found.results.map((r) => r.source))].slice(0, 6),
    words: ["police", "baltimore", "shooting", "biden", "new year", "fire", "court", "zzzqqq"],
  };
  const target: FuzzTarget = {
    server,
    mcp,
    clock,
    restKey,
    restCaller: await server.container.accounts.identify(restKey),
    mcpCaller: await server.container.accounts.identify(mcpKey),
    pool,
    async reconnect() {
      await target.mcp.close();
      target.mcp = await connectClient(server, { key: mcpKey });
    },
    async close() {
      await target.mcp.close();
      await server.close();
    },
  };
  return target;
}

/** Runs `cases` generated calls (two requests each) from `seed`; throws fast-check's report on the first broken property. */
export async function runFuzz(
  target: FuzzTarget,
  options: { seed: number; cases: number; onProgress?: (stats: FuzzStats) => void },
): Promise<FuzzStats> {
  const stats: FuzzStats = { cases: 0, requests: 0, byStatus: {}, byOperation: {} };
  target.schemas ??= await ServedSchemas.load(target.server);
  await fc.assert(
    fc.asyncProperty(callArbitrary(toolOperations(OPERATIONS), target.pool), async (call) => {
      // The SDK client keeps a listener per call on its connection's signal; a fresh client every so often keeps long runs flat.
      if (stats.cases > 0 && stats.cases % CALLS_PER_CLIENT === 0) await target.reconnect();
      await checkCall(target, call, stats);
      if (stats.cases % PROGRESS_EVERY === 0) options.onProgress?.(stats);
    }),
    { seed: options.seed, numRuns: options.cases, endOnFailure: true },
  );
  return stats;
}

async function checkCall(target: FuzzTarget, call: Call, stats: FuzzStats): Promise<void> {
  // A minute per call: both tenants' buckets are full, so each door meets the same budgets.
  target.clock.advance(60_000);
  const restBefore = await counters(target, target.restCaller);
  const rest = await viaRest(target, call);
  const restAfter = await counters(target, target.restCaller);
  const mcpBefore = await counters(target, target.mcpCaller);
  const mcp = await viaMcp(target, call);
  const mcpAfter = await counters(target, target.mcpCaller);

  stats.cases += 1;
  stats.requests += 2;
  stats.byOperation[call.operation.name] = (stats.byOperation[call.operation.name] ?? 0) + 1;
  for (const outcome of [rest, mcp]) {
    const key = outcome.code ? `${outcome.status} ${outcome.code}` : String(outcome.status);
    stats.byStatus[key] = (stats.byStatus[key] ?? 0) + 1;
  }

  const where = `${call.operation.tool} ${JSON.stringify(call.args).slice(0, 500)}`;
  for (const [door, outcome] of [
    ["REST", rest],
    ["MCP", mcp],
  ] as const) {
    if (outcome.schemaProblem !== undefined) {
      throw new Error(`${door} 200 body does not match its served schema (${outcome.schemaProblem}) for ${where}`);
    }
  }
  for (const [door, outcome, before, after] of [
    ["REST", rest, restBefore, restAfter],
    ["MCP", mcp, mcpBefore, mcpAfter],
  ] as const) {
    if (outcome.status >= 500) throw new Error(`${door} answered ${outcome.status} ${outcome.code ?? ""} to ${where}`);
    if (!SPEC_STATUSES.has(outcome.status)) throw new Error(`${door} answered ${outcome.status}, not a spec status, to ${where}`);
    if (outcome.status >= 400) {
      const code = outcome.code;
      if (code === undefined || !Object.hasOwn(ERROR_STATUS, code)) {
        throw new Error(`${door} ${outcome.status} carries no spec code (${code}) for ${where}`);
      }
      if (ERROR_STATUS[code as ErrorCode] !== outcome.status) {
        throw new Error(
          `${door} ${outcome.status} carries ${code}, whose status is ${ERROR_STATUS[code as ErrorCode]}, for ${where}`,
        );
      }
      if (!outcome.detail) throw new Error(`${door} ${outcome.status} ${code} carries no detail for ${where}`);
    }
    if (outcome.status !== 200 && outcome.status !== 404 && (after.used !== before.used || after.minute !== before.minute)) {
      throw new Error(`${door} ${outcome.status} ${outcome.code} charged ${JSON.stringify({ before, after })} for ${where}`);
    }
  }
  if (rest.status !== mcp.status || rest.code !== mcp.code) {
    throw new Error(`REST ${rest.status} ${rest.code ?? ""} but MCP ${mcp.status} ${mcp.code ?? ""} for ${where}`);
  }
}

async function counters(target: FuzzTarget, caller: Caller): Promise<{ used: string; minute: string }> {
  const headers = await target.server.container.credits.headers(caller);
  return { used: headers["x-credits-used"] ?? "", minute: headers["x-credits-per-minute-remaining"] ?? "" };
}

/** The call as a REST request: path parameters in the path, body fields in a JSON body, the rest as query-string text. */
export function restPath(call: Call): string {
  let path = call.operation.path;
  const query: string[] = [];
  for (const [name, value] of Object.entries(call.args)) {
    if (call.operation.pathParams.includes(name)) path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
    else if (!isBodyField(call, name)) {
      const text = Array.isArray(value) ? (MCP_PARAMETER_FORMS[name]?.toRest(value) ?? "") : String(value);
      query.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
    }
  }
  return query.length === 0 ? path : `${path}?${query.join("&")}`;
}

function isBodyField(call: Call, name: string): boolean {
  return call.operation.body !== undefined && Object.hasOwn(call.operation.body.properties, name);
}

async function viaRest(target: FuzzTarget, call: Call): Promise<Outcome> {
  const body =
    call.operation.body === undefined
      ? undefined
      : JSON.stringify(Object.fromEntries(Object.entries(call.args).filter(([name]) => isBodyField(call, name))));
  const response = await fetch(target.server.url + restPath(call), {
    method: call.operation.method,
    headers: { "x-api-key": target.restKey, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  const parsed = parse(text);
  if (response.status === 200 || response.status === 201) {
    const schemaProblem = schemasOf(target).restProblem(call.operation, response.status, parsed);
    return schemaProblem === undefined ? { status: 200 } : { status: 200, schemaProblem };
  }
  if (response.status === 400 && response.headers.get("x-credits-charged") !== "0") {
    return { status: 599, code: "charged_400", detail: text.slice(0, 200) };
  }
  return { status: response.status, ...errorFields(parsed) };
}

async function viaMcp(target: FuzzTarget, call: Call): Promise<Outcome> {
  try {
    const tool = call.operation.tool ?? call.operation.name;
    const result = await target.mcp.client.callTool({ name: tool, arguments: call.args as Record<string, Value> });
    if (result.isError !== true) {
      const schemaProblem = schemasOf(target).toolProblem(tool, result.structuredContent);
      return schemaProblem === undefined ? { status: 200 } : { status: 200, schemaProblem };
    }
    const body = (result.structuredContent ?? {}) as Record<string, unknown>;
    const code = typeof body.code === "string" ? body.code : undefined;
    return {
      status: code !== undefined && Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : 598,
      ...errorFields(body),
    };
  } catch (error) {
    if (error instanceof ProtocolError) {
      const data = (error.data ?? {}) as Record<string, unknown>;
      if (error.code === -32602) return { status: 400, ...errorFields(data) };
      return { status: 500, code: `jsonrpc ${error.code}`, detail: error.message };
    }
    return { status: 597, code: "transport", detail: String(error) };
  }
}

function schemasOf(target: FuzzTarget): ServedSchemas {
  if (target.schemas === undefined) throw new Error("runFuzz loads the served schemas first");
  return target.schemas;
}

function errorFields(body: unknown): { code?: string; detail?: string } {
  const record = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  return {
    ...(typeof record.code === "string" ? { code: record.code } : {}),
    ...(typeof record.detail === "string" ? { detail: record.detail } : {}),
  };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}
