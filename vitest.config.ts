import { defineConfig } from "vitest/config";
import { UnfinishedReporter } from "./test/support/unfinished-reporter.js";

// Three projects: `unit` (src/**: one module on real parts, seconds),
// `integration` (test/**: real servers, processes and the GKG sample, minutes)
// and `scaled` (the HTTP and MCP suites again, every server on OpenSearch and
// PostgreSQL: test/support/test-shape.ts). `npm test` runs them all;
// `npm run test:unit` the first alone.

// What only the embedded engine has, so the scaled project leaves it out (one line each: why).
const EMBEDDED_ONLY = [
  // Rebuilds derived fields inside old-format monthly SQLite files.
  "test/http/derived-rebuild.test.ts",
  // Reads monthly SQLite files written in an old format.
  "test/http/graph-exposures-old-index.test.ts",
  // The HNSW graph files the embedded engine writes beside its monthly SQLite files.
  "test/http/semantic-graph.test.ts",
  "test/http/similar-large-story.test.ts",
  // Pins its own OpenSearch node and runs as it is in the integration project.
  "test/http/opensearch-shape.test.ts",
  // The embedded engine's read lanes (index reads on worker threads); the scaled shape's reads are network calls.
  "test/http/cheap-beside-expensive.test.ts",
  // The time tallies inside monthly SQLite files, compared with counting their articles (the cluster answers
  // /aggregate with its own aggregations, tested by aggregate.test.ts in both shapes).
  "test/http/aggregate-tallies.test.ts",
];
export default defineConfig({
  test: {
    pool: "forks",
    // Two test files at once on two cores (Vitest's default leaves one core idle): integration files spend
    // most of their time waiting on servers and child processes, not computing.
    maxWorkers: 2,
    // A worker process runs file after file with its modules loaded once (no test changes module state or the
    // environment): importing the server's module graph anew for each of ~120 files was a quarter of the suite's CPU.
    isolate: false,
    // Timeouts catch a hang, not slowness: on two busy cores a correct test must not fail (speed is measured in bench/).
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ["default", new UnfinishedReporter()],
    // Spawned CLIs and worker threads run a compiled copy of src/, made once per run (test/support/compiled-sources.ts).
    setupFiles: ["test/support/compiled-threads.ts"],
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["src/**/*.test.ts"], globalSetup: ["test/support/compiled-sources-setup.ts"] },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // Ingests the sample once per distinct request, for every test server of the run (test/support/ingest-template.ts).
          globalSetup: ["test/support/compiled-sources-setup.ts", "test/support/global-setup.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "scaled",
          include: ["test/http/**/*.test.ts", "test/mcp/**/*.test.ts"],
          exclude: EMBEDDED_ONLY,
          env: { NEWSINDEX_TEST_SHAPE: "scaled" },
          globalSetup: [
            "test/support/compiled-sources-setup.ts",
            "test/support/global-setup.ts",
            "test/support/scaled-global-setup.ts",
          ],
        },
      },
    ],
  },
});
