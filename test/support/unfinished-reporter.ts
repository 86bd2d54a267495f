import type { Reporter, TestModule } from "vitest/node";

// Printed after the summary, so it is in the last lines of a CI log: every test
// file that did not pass, with the tests in it that never finished. A test
// process that dies (a native crash, a kill) leaves its file failed and its
// remaining tests pending, and the default summary names neither.

export class UnfinishedReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const lines: string[] = [];
    for (const module of testModules) {
      if (module.state() === "passed" || module.state() === "skipped") continue;
      const pending = [...module.children.allTests("pending")].map((test) => test.fullName);
      lines.push(
        `${module.relativeModuleId}: ${module.state()}${pending.length > 0 ? `; never finished: ${pending.join(" | ")}` : ""}`,
      );
    }
    if (lines.length > 0) process.stderr.write(`\nTest files that did not pass:\n${lines.map((l) => `  ${l}\n`).join("")}`);
  }
}
