import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The layering rule (.dependency-cruiser.cjs) that `npm test` runs, run here on
// a copy of src/ in a temporary folder with bad imports planted in the copy:
// it fails, naming exactly the planted ones. The work tree is never touched.

const ROOT = new URL("../../", import.meta.url).pathname;
const CLI = join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const RULES = join(ROOT, ".dependency-cruiser.cjs");

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

function copyOfSrc(): string {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-layers-"));
  copies.push(dir);
  cpSync(join(ROOT, "src"), join(dir, "src"), { recursive: true });
  return dir;
}

function check(dir: string): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [CLI, "--config", RULES, "--output-type", "err", "src"], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe("the dependency rule", () => {
  it("fails on imports against the layering, naming each one and no other", { timeout: 120_000 }, () => {
    const dir = copyOfSrc();
    const plant = (path: string, code: string): void => writeFileSync(join(dir, "src", path), code);
    // A domain rule reaching up into operations.
    plant("domain/planted.ts", 'import { OPERATIONS } from "../operations/registry.js";\nexport const all = OPERATIONS;\n');
    // A type-only import counts too: a service naming a REST type.
    plant("services/planted.ts", 'import type { AppOptions } from "../http/app.js";\nexport type Options = AppOptions;\n');
    // The MCP door importing the REST door instead of transport/.
    plant("mcp/planted.ts", 'import { buildOpenApi } from "../http/openapi.js";\nexport const doc = buildOpenApi;\n');
    // An adapter outside the composition root.
    plant(
      "operations/planted.ts",
      'import { SqliteControlStore } from "../adapters/sqlite/control-store.js";\nexport const S = SqliteControlStore;\n',
    );

    const result = check(dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/domain-imports-only-\S*: src\/domain\/planted\.ts → src\/operations\/registry\.ts/);
    expect(result.output).toMatch(/services-imports-only-\S*: src\/services\/planted\.ts → src\/http\/app\.ts/);
    expect(result.output).toMatch(/mcp-imports-only-\S*: src\/mcp\/planted\.ts → src\/http\/openapi\.ts/);
    expect(result.output).toMatch(
      /adapters-only-in-composition-root: src\/operations\/planted\.ts → src\/adapters\/sqlite\/control-store\.ts/,
    );
    // Exactly the planted four: src itself is clean.
    expect(result.output).toContain("x 4 dependency violations");
  });
});
