// The one error type that carries the spec's `code` (spec section 7). Its HTTP
// status comes from ERROR_STATUS; REST maps it in http/error-handler.ts, MCP in mcp/.

export const ERROR_STATUS = {
  invalid_parameter: 400,
  unknown_parameter: 400,
  unknown_signal: 400,
  credit_budget_exceeded: 400,
  watch_limit: 400,
  unauthorized: 401,
  suspended: 402,
  not_found: 404,
  request_timeout: 408,
  payload_too_large: 413,
  insufficient_credits: 429,
  credit_rate_limited: 429,
  message_rate_limited: 429,
  internal: 500,
  unsupported: 501,
  upstream_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const LABELS: Record<ErrorCode, string> = {
  invalid_parameter: "Invalid parameter",
  unknown_parameter: "Unknown parameter",
  unknown_signal: "Unknown signal",
  credit_budget_exceeded: "Credit budget exceeded",
  watch_limit: "Watch limit reached",
  unauthorized: "Unauthorized",
  suspended: "Suspended",
  not_found: "Not found",
  request_timeout: "Request timeout",
  payload_too_large: "Payload too large",
  insufficient_credits: "Insufficient credits",
  credit_rate_limited: "Credit rate limited",
  message_rate_limited: "Message rate limited",
  internal: "Internal error",
  unsupported: "Unsupported",
  upstream_unavailable: "Upstream unavailable",
};

/** Extra members of the error body: credit figures on refusals, etc. */
export type ErrorExtras = Record<string, unknown>;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  detail: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly extras: ErrorExtras;
  /** Seconds for a `retry-after` header (429s). */
  readonly retryAfterSecs: number | undefined;

  constructor(code: ErrorCode, detail: string, extras: ErrorExtras = {}, retryAfterSecs?: number) {
    super(detail);
    this.name = "ApiError";
    this.code = code;
    this.detail = detail;
    this.extras = extras;
    this.retryAfterSecs = retryAfterSecs;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return { error: LABELS[this.code], code: this.code, detail: this.detail, ...this.extras };
  }
}

/** The one refusal of a parameter's value or combination: 400 `invalid_parameter`, naming the parameter. */
export function invalidParameter(parameter: string, detail: string): ApiError {
  return new ApiError("invalid_parameter", detail, { parameter });
}

/** The body of a failure we did not foresee: generic, nothing internal leaks. */
export function internalErrorBody(): ErrorBody {
  return {
    error: LABELS.internal,
    code: "internal",
    detail: "The server failed to complete the request. It has been logged; retry later.",
  };
}
