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
  it("fails on imports against the layering, naming each one and no other", () => {
    const dir = copyOfSrc();
    const plant = (path: string, code: string): void => writeFileSync(join(dir, "src", path), code);
    // A domain rule reaching up into the operations registry.
    plant("domain/planted.ts", 'import { OPERATIONS } from "../app/registry.js";\nexport const all = OPERATIONS;\n');
    // A type-only import counts too: a use case naming a REST type.
    plant("usecases/planted.ts", 'import type { AppOptions } from "../http/app.js";\nexport type Options = AppOptions;\n');
    // A use case running a metered call: charging is app/'s, above the use cases.
    plant(
      "usecases/planted-call.ts",
      'import { runOperation } from "../app/run-operation.js";\nexport const run = runOperation;\n',
    );
    // The MCP door importing the REST door instead of http/reply/.
    plant("http/mcp/planted.ts", 'import { buildOpenApi } from "../openapi.js";\nexport const doc = buildOpenApi;\n');
    // An adapter outside the composition root.
    plant(
      "app/planted.ts",
      'import { SqliteControlStore } from "../adapters/sqlite/control-store.js";\nexport const S = SqliteControlStore;\n',
    );

    // An index adapter reaching into the model runtime's adapter instead of a port.
    plant(
      "adapters/sqlite/planted.ts",
      'import { OnnxEmbedder } from "../onnx/onnx-embedder.js";\nexport const E = OnnxEmbedder;\n',
    );
    // The domain opening a database (an npm package that does I/O) and reading a file (a Node built-in that does I/O).
    plant("domain/planted-db.ts", 'import Database from "better-sqlite3";\nexport const D = Database;\n');
    plant("domain/planted-fs.ts", 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\n');
    // The CLI picking an adapter itself instead of asking the composition root.
    plant(
      "cli/planted.ts",
      'import { SqliteIndexBackend } from "../adapters/sqlite/sqlite-index-backend.js";\nexport const I = SqliteIndexBackend;\n',
    );

    const result = check(dir);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/domain-imports-only-\S*: src\/domain\/planted\.ts → src\/app\/registry\.ts/);
    expect(result.output).toMatch(/usecases-imports-only-\S*: src\/usecases\/planted\.ts → src\/http\/app\.ts/);
    expect(result.output).toMatch(/usecases-imports-only-\S*: src\/usecases\/planted-call\.ts → src\/app\/run-operation\.ts/);
    expect(result.output).toMatch(/http\/mcp-imports-only-\S*: src\/http\/mcp\/planted\.ts → src\/http\/openapi\.ts/);
    expect(result.output).toMatch(
      /adapters-only-in-composition-root: src\/app\/planted\.ts → src\/adapters\/sqlite\/control-store\.ts/,
    );
    expect(result.output).toMatch(
      /adapter-folders-import-no-other-adapter-folder: src\/adapters\/sqlite\/planted\.ts → src\/adapters\/onnx\/onnx-embedder\.ts/,
    );
    expect(result.output).toMatch(/domain-imports-only-pure-packages: src\/domain\/planted-db\.ts → \S*better-sqlite3\b/);
    expect(result.output).toMatch(/domain-imports-only-pure-packages: src\/domain\/planted-fs\.ts → (node:)?fs\b/);
    expect(result.output).toMatch(
      /adapters-only-in-composition-root: src\/cli\/planted\.ts → src\/adapters\/sqlite\/sqlite-index-backend\.ts/,
    );
    // Exactly the planted nine: src itself is clean.
    expect(result.output).toContain("x 9 dependency violations");
  });
});
