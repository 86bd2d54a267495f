import { pino, type Logger } from "pino";

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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: "[redacted]" } });
}
