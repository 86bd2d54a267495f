import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

// Runs the official MCP conformance CLI (@modelcontextprotocol/conformance,
// installed by npm ci, nothing downloaded) against a server URL, as a child
// process on the Node running the tests, and reads its per-scenario
// checks.json files.

const run = promisify(execFile);

/** Loads the CLI with the module hooks that let it run on Node 20 (see node20-fs-hooks.mjs). */
const NODE20_HOOKS = new URL("./node20-register.mjs", import.meta.url).pathname;

export interface ScenarioResult {
  scenario: string;
  /** Messages of the checks that reported FAILURE; empty when the scenario passed. */
  failures: string[];
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

export async function runConformance(url: string, suite: string): Promise<ScenarioResult[]> {
  const cli = join(
    dirname(createRequire(import.meta.url).resolve("@modelcontextprotocol/conformance/package.json")),
    "dist/index.js",
  );
  const outDir = mkdtempSync(join(tmpdir(), "newsindex-conformance-"));
  try {
    // The CLI exits non-zero when any scenario fails; the per-scenario files, not the exit code, are the result.
    await run(process.execPath, ["--import", NODE20_HOOKS, cli, "server", "--url", url, "--suite", suite, "-o", outDir], {
      timeout: 240_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: unknown) => {
      if (!(typeof error === "object" && error !== null && "code" in error && error.code === 1)) throw error;
    });
    return readdirSync(outDir).map((folder) => {
      const checks = JSON.parse(readFileSync(join(outDir, folder, "checks.json"), "utf8")) as Check[];
      return {
        scenario: scenarioOf(folder),
        failures: checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? "failed"}`),
      };
    });
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** `server-tools-list-2026-01-01T00-00-00-000Z` is scenario `tools-list`. */
function scenarioOf(folder: string): string {
  return folder.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
}
