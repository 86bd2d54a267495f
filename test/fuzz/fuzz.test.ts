import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolOperations } from "../../src/app/operation.js";
import { OPERATIONS } from "../../src/app/registry.js";
import { runFuzz, startFuzzTarget, type FuzzTarget } from "./fuzz-harness.js";

// The bounded, seeded fuzz run of `npm test` (`npm run fuzz` runs the long one):
// generated calls to every operation over REST and MCP, with the properties of
// fuzz-harness.ts. A failure prints fast-check's seed and path to replay it.

/** Calls per run; each is two requests (REST and MCP). */
const CASES = 1_000;
const SEED = 18;

let target: FuzzTarget;

beforeAll(async () => {
  target = await startFuzzTarget();
});

afterAll(async () => {
  await target?.close();
});

describe("fuzzing every operation over REST and MCP", () => {
  it(`holds the properties over ${CASES} generated calls (seed ${SEED})`, async () => {
    const stats = await runFuzz(target, { seed: SEED, cases: CASES });
    expect(stats.cases).toBe(CASES);
    // The run reached every operation, and both successes and refusals.
    for (const operation of toolOperations(OPERATIONS))
      expect(stats.byOperation[operation.name], operation.name).toBeGreaterThan(20);
    expect(stats.byStatus["200"]).toBeGreaterThan(CASES / 4);
    expect(stats.byStatus["400 invalid_parameter"]).toBeGreaterThan(CASES / 10);
    expect(stats.byStatus["400 unknown_parameter"]).toBeGreaterThan(CASES / 20);
  });
});
