import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

// Keys and secrets never reach a log line.
const REDACT = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  "headers.authorization",
  'headers["x-api-key"]',
  "key",
  "*.key",
  "secret",
  "*.secret",
  "webhook_secret",
  "*.webhook_secret",
];

/** A pino logger with the secrets redacted; to stdout unless a destination is given. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACT, censor: "[redacted]" } };
  return destination === undefined ? pino(options) : pino(options, destination);
}
