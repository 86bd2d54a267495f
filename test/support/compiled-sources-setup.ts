import { rmSync } from "node:fs";
import { compileSources, COMPILED_SOURCES_ENV } from "./compiled-sources.js";

// Global setup of every project: the run's compiled copy of src/ (compiled-sources.ts), made by the first project
// to start and removed when the run ends.

let made: string | undefined;

export async function setup(): Promise<void> {
  if (process.env[COMPILED_SOURCES_ENV] !== undefined) return;
  made = await compileSources();
  // Test processes are forked after this, with this environment.
  process.env[COMPILED_SOURCES_ENV] = made;
}

export function teardown(): void {
  if (made === undefined) return;
  rmSync(made, { recursive: true, force: true });
  made = undefined;
}
