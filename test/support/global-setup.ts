import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEMPLATE_ROOT_ENV } from "./ingest-template.js";

// The integration run's template root: fresh for every run, so a template is
// always what this checkout's pipeline writes; removed when the run ends.

let root: string | undefined;

export function setup(): void {
  root = mkdtempSync(join(tmpdir(), "newsindex-templates-"));
  // Test processes are forked after this, with this environment.
  process.env[TEMPLATE_ROOT_ENV] = root;
}

export function teardown(): void {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
}
