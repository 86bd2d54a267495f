import type { Caller } from "../../usecases/accounts/account-service.js";
import type { ApiError } from "../../shared/api-error.js";
import type { SessionRef } from "./session-meter.js";

/**
 * One HTTP request to /mcp, from the transport check to the answer: who is
 * calling, which session it counts toward, and whether a tool call in it met
 * the message rate limit, which the spec answers with HTTP 429 rather than a
 * JSON-RPC message.
 */
export class McpExchange {
  private limited: ApiError | undefined;

  constructor(
    /** The key as presented: runOperation checks it again, with suspension, on every tool call. */
    readonly key: string,
    readonly caller: Caller,
    readonly session: SessionRef,
  ) {}

  /** Marks the exchange for a 429 answer. */
  rateLimited(error: ApiError): void {
    this.limited ??= error;
  }

  get rateLimit(): ApiError | undefined {
    return this.limited;
  }
}
