import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { compiledSources } from "../../../test/support/compiled-sources.js";
import { besideModule, WorkerRpc } from "./worker-rpc.js";

describe("WorkerRpc", () => {
  it("runs a thread on a TypeScript source from the test run's compiled copy of the sources", async () => {
    const compiled = compiledSources();
    expect(compiled).toBeDefined();
    const rpc = new WorkerRpc<null, string>(
      { module: besideModule(import.meta.url, "fixtures/where-thread"), exportName: "serveWhere" },
      "where thread",
    );
    try {
      expect(await rpc.call(null)).toBe(pathToFileURL(`${compiled}/adapters/threads/fixtures/where-thread.js`).href);
    } finally {
      await rpc.close();
    }
  });
});
