import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { registerReadiness, type ReadinessCheck } from "./readiness.js";

async function ready(checks: ReadinessCheck[], draining = false, timeoutMs?: number) {
  const app = Fastify();
  registerReadiness(app, { checks, draining: () => draining, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  const res = await app.inject({ method: "GET", url: "/ready" });
  await app.close();
  return { status: res.statusCode, body: res.json<{ status: string; checks: Record<string, string> }>() };
}

const ok = (name: string): ReadinessCheck => ({ name, probe: async () => 1 });

describe("GET /ready", () => {
  it("answers 200 when every dependency answers", async () => {
    expect(await ready([ok("index"), ok("control_store")])).toEqual({
      status: 200,
      body: { status: "ready", checks: { index: "ok", control_store: "ok" } },
    });
  });

  it("answers 503 naming the dependency that failed, and why", async () => {
    const down: ReadinessCheck = {
      name: "control_store",
      probe: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      },
    };
    const res = await ready([ok("index"), down]);
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      status: "unavailable",
      checks: { index: "ok", control_store: "connect ECONNREFUSED 127.0.0.1:5432" },
    });
  });

  it("counts a dependency that does not answer within the timeout as down", async () => {
    const hung: ReadinessCheck = { name: "index", probe: () => new Promise(() => undefined) };
    const res = await ready([hung], false, 50);
    expect(res.status).toBe(503);
    expect(res.body.checks.index).toMatch(/no answer within 50 ms/);
  });

  it("fails while draining, even with every dependency up, so a balancer stops sending calls", async () => {
    const res = await ready([ok("index")], true);
    expect(res).toEqual({ status: 503, body: { status: "draining", checks: { index: "ok" } } });
  });
});
