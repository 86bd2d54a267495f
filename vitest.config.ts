import { defineConfig } from "vitest/config";
import { UnfinishedReporter } from "./test/support/unfinished-reporter.js";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", new UnfinishedReporter()],
  },
});
