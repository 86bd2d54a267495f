import { randomBytes } from "node:crypto";
import { dropRun, TEST_RUN_ENV } from "./test-shape.js";

// The scaled run's id: every OpenSearch index and PostgreSQL schema its test
// servers make is named under it, and whatever is left when the run ends (a
// server kept past its test, a killed worker) is dropped here.

let run: string | undefined;

export function setup(): void {
  run = `t${randomBytes(4).toString("hex")}`;
  // Test processes are forked after this, with this environment.
  process.env[TEST_RUN_ENV] = run;
}

export async function teardown(): Promise<void> {
  if (run !== undefined) await dropRun(run);
}
