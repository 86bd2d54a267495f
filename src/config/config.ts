import { resolve } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

// Configuration is read and validated once, at start. Nothing else reads process.env.

export const ConfigSchema = Type.Object({
  /** Where monthly index files and control.db live. */
  dataDir: Type.String({ minLength: 1 }),
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  logLevel: Type.Union(["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => Type.Literal(l))),
  /** Rows per write transaction at ingest. */
  ingestBatchSize: Type.Integer({ minimum: 1, maximum: 100_000 }),
  /** Operator token for /admin; the operator API is off without one. */
  adminToken: Type.Optional(Type.String({ minLength: 16 })),
});

export type Config = Static<typeof ConfigSchema>;

export type ConfigOverrides = Partial<Config>;

export class ConfigError extends Error {}

/** Builds the config from the environment, then command-line overrides. Throws ConfigError listing every problem. */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: ConfigOverrides = {}): Config {
  const raw = {
    dataDir: overrides.dataDir ?? env.NEWSINDEX_DATA_DIR ?? "./var",
    host: overrides.host ?? env.HOST ?? "127.0.0.1",
    port: overrides.port ?? numberOrRaw(env.PORT) ?? 8080,
    logLevel: overrides.logLevel ?? env.LOG_LEVEL ?? "info",
    ingestBatchSize: overrides.ingestBatchSize ?? numberOrRaw(env.NEWSINDEX_INGEST_BATCH) ?? 2000,
    ...optional("adminToken", overrides.adminToken ?? env.NEWSINDEX_ADMIN_TOKEN),
  };
  if (!Value.Check(ConfigSchema, raw)) {
    const problems = [...Value.Errors(ConfigSchema, raw)].map((e) => `${e.path.slice(1) || "config"}: ${e.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  return { ...raw, dataDir: resolve(raw.dataDir) };
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === "" ? {} : ({ [key]: value } as Record<K, string>);
}

function numberOrRaw(value: string | undefined): number | string | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : value;
}
