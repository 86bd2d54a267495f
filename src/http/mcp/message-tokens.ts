import { isJSONRPCRequest } from "@modelcontextprotocol/server";
import type { OperationDeps } from "../../app/operation.js";
import type { Caller } from "../../usecases/accounts/account-service.js";

// Everything sent to /mcp costs 0 credits or its tool's price, and whatever
// costs 0 takes a message token (spec section 8), so that no kind of message
// escapes the plan's messages per minute: past it, HTTP 429 with retry-after,
// before any JSON-RPC work. One token each for: every JSON-RPC message of a
// POST (requests, notifications, responses) except a tools/call, which
// runOperation meters instead (credits, or a token when free or refused); a
// POST body that is not JSON-RPC at all; opening the event stream (GET); and
// ending a session (DELETE).

/** Message tokens a POST body takes before it is served. */
export function messageTokenCount(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return 1;
  return messages.filter((m) => !isToolCall(m)).length;
}

function isToolCall(message: unknown): boolean {
  return isJSONRPCRequest(message) && message.method === "tools/call";
}

/** Takes `count` message tokens; throws ApiError message_rate_limited past the plan's rate. */
export async function admitMessages(count: number, caller: Caller, deps: OperationDeps): Promise<void> {
  for (let i = count; i > 0; i--) await deps.credits.admitMessage(caller);
}
