import { defineConfig } from "vitest/config";
import { UnfinishedReporter } from "./test/support/unfinished-reporter.js";

// Two projects: `unit` (src/**: one module on real parts, seconds) and
// `integration` (test/**: real servers, processes and the GKG sample, minutes).
// `npm test` runs both; `npm run test:unit` the first alone.
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
    projects: [
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // Ingests the sample once per distinct request, for every test server of the run (test/support/ingest-template.ts).
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
    ],
  },
});
