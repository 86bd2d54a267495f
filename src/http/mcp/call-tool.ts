import { ProtocolError, ProtocolErrorCode, type CallToolResult } from "@modelcontextprotocol/server";
import type { OperationDeps, Operation } from "../../app/operation.js";
import { refuseRequest, runOperation, type CallOutcome } from "../../app/run-operation.js";
import { ApiError } from "../../shared/api-error.js";
import { closestName } from "../../shared/closest-name.js";
import type { McpExchange } from "./exchange.js";
import { toOperationInput } from "./parameter-forms.js";
import { ACCOUNT_STATUS_TOOL, withSessionTotals } from "./session-fields.js";
import type { SessionMeter } from "./session-meter.js";
import type { ToolCatalog } from "./tool-catalog.js";
import { McpRateLimited, toToolResult } from "./tool-result.js";

// tools/call: every call runs through runOperation, the path REST takes too
// (key, suspension, validation, price, budgets, run, charge), then is counted
// toward its session and mapped to MCP in tool-result.ts.

export interface ToolCallContext {
  catalog: ToolCatalog;
  deps: OperationDeps;
  sessions: SessionMeter;
}

export async function callTool(
  name: string,
  args: Record<string, unknown>,
  exchange: McpExchange,
  context: ToolCallContext,
): Promise<CallToolResult> {
  const operation = context.catalog.operation(name);
  if (operation === undefined) {
    // A call of no tool is a refused message: it takes a token, like any refusal.
    try {
      await context.deps.credits.admitMessage(exchange.caller);
    } catch (error) {
      if (error instanceof ApiError && error.code === "message_rate_limited") throw new McpRateLimited(error);
      throw error;
    }
    context.sessions.record(exchange.session, 0);
    const suggestion = closestName(name, context.catalog.names);
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `There is no tool '${name}'. Did you mean '${suggestion}'? Tools: ${context.catalog.names.join(", ")}.`,
      { tool: name, suggestion },
    );
  }
  let outcome = await outcomeOf(operation, args, exchange, context);
  // A message-rate refusal is answered as HTTP 429, not as a call: it is not counted.
  if (outcome.ok || outcome.error.code !== "message_rate_limited") {
    const totals = context.sessions.record(exchange.session, outcome.credits_charged);
    if (outcome.ok && operation.tool === ACCOUNT_STATUS_TOOL) {
      outcome = { ...outcome, body: withSessionTotals(outcome.body, totals) };
    }
  }
  return toToolResult(outcome);
}

async function outcomeOf(
  operation: Operation,
  args: Record<string, unknown>,
  exchange: McpExchange,
  { deps, catalog }: ToolCallContext,
): Promise<CallOutcome> {
  let input: ReturnType<typeof toOperationInput>;
  try {
    input = toOperationInput(operation, args, catalog.operations);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // An MCP-shaped argument was malformed; the spec's order still puts the key and suspension first.
    return refuseRequest(exchange.key, error, deps);
  }
  return runOperation(operation, { key: exchange.key, form: "json", ...input, served: catalog.operations }, deps);
}
