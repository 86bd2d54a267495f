import type { FastifyInstance } from "fastify";

// Readiness, for a load balancer in front of several replicas: GET /ready on the
// operations listener (the console's port), never on the API's origin, whose
// key-free paths are the spec's alone. 200 while this replica can reach the
// index and the control store and is not shutting down; 503 otherwise, so the
// balancer stops sending it calls before they would fail (docs/operators.md).

/** One dependency the replica cannot answer without. */
export interface ReadinessCheck {
  name: string;
  /** Resolves when the dependency answered; rejects (or outlasts the timeout) when it did not. */
  probe(): Promise<unknown>;
}

export interface ReadinessOptions {
  checks: readonly ReadinessCheck[];
  /** True once the process is draining: readiness fails first so the balancer stops sending calls. */
  draining(): boolean;
  /** How long one probe may take before it counts as down. */
  timeoutMs?: number;
}

/**
 * Slower than this is down. Generous: a replica on a loaded machine answers slowly but answers, and taking every
 * replica out of the balancer for slowness would refuse all calls instead of some.
 */
const PROBE_TIMEOUT_MS = 5000;

export interface ReadinessReport {
  ready: boolean;
  draining: boolean;
  /** Each dependency: `ok`, or why it is down. */
  checks: Record<string, string>;
}

export async function readiness(options: ReadinessOptions): Promise<ReadinessReport> {
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  const results = await Promise.all(
    options.checks.map(async (check) => [check.name, await probeWithin(check, timeoutMs)] as const),
  );
  const draining = options.draining();
  return {
    ready: !draining && results.every(([, state]) => state === "ok"),
    draining,
    checks: Object.fromEntries(results),
  };
}

export function registerReadiness(app: FastifyInstance, options: ReadinessOptions): void {
  app.get("/ready", async (_request, reply) => {
    const report = await readiness(options);
    return reply
      .status(report.ready ? 200 : 503)
      .header("cache-control", "no-store")
      .type("application/json; charset=utf-8")
      .send({ status: report.ready ? "ready" : report.draining ? "draining" : "unavailable", checks: report.checks });
  });
}

async function probeWithin(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      check.probe().then(
        () => "ok",
        (error: unknown) => (error instanceof Error ? error.message : String(error)) || "unreachable",
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
