import { isJSONRPCRequest } from "@modelcontextprotocol/server";
import type { OperationDeps } from "../operations/operation.js";
import type { Caller } from "../services/accounts/account-service.js";

// initialize, tools/list, ping and the other protocol requests cost 0 credits
// but take a message token each (spec section 8), so a flood of them meets the
// message rate limit: HTTP 429 with retry-after, before any JSON-RPC work.
// tools/call is metered by runOperation instead (credits, or a message token
// for free calls and refusals). Notifications and responses take nothing.

export function protocolRequestCount(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => isJSONRPCRequest(m) && m.method !== "tools/call").length;
}

/** Takes one message token per protocol request; throws ApiError message_rate_limited past the plan's rate. */
export async function admitProtocolRequests(body: unknown, caller: Caller, deps: OperationDeps): Promise<void> {
  for (let i = protocolRequestCount(body); i > 0; i--) await deps.credits.admitMessage(caller);
}
