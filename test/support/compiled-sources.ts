import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

// The test runner's compiled copy of src/: a Node process or thread started on TypeScript sources loads them
// through tsx's module hooks, which cost each one about half a second of CPU (a read thread: 0.75 s against 0.13 s
// on compiled code, two cores), and every test server and spawned CLI starts several. So a run compiles src/ once,
// file by file as tsx and `npm run build` do, into a directory beside src/ (paths relative to a module, such as
// ../../../data/, resolve as they do from dist/), and spawned CLIs and worker threads run that copy.

/** The environment variable that names the run's compiled copy for the test processes. */
export const COMPILED_SOURCES_ENV = "NEWSINDEX_TEST_COMPILED_SOURCES";

export const ROOT = new URL("../../", import.meta.url).pathname;
export const SOURCES = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Compiles src/ into a new directory beside it and returns its path. */
export async function compileSources(): Promise<string> {
  const outdir = mkdtempSync(join(ROOT, ".test-compiled-"));
  try {
    await build({
      entryPoints: sourceFiles(SOURCES),
      outdir,
      outbase: SOURCES,
      bundle: false,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: "inline",
      logLevel: "error",
    });
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
  return outdir;
}

/** The run's compiled copy (set by the global setup), or undefined outside the test runner. */
export function compiledSources(): string | undefined {
  return process.env[COMPILED_SOURCES_ENV];
}
