import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { IndexBackend } from "../../src/ports/index-backend.js";
import { testOpenSearch } from "../support/opensearch.js";
import { describeIndexBackendContract } from "./index-backend.contract.js";

describeIndexBackendContract("opensearch", async () => {
  const node = await testOpenSearch();
  const index = new OpenSearchIndex(node.client, { prefix: node.prefix });
  const backend = new Proxy(index, {
    get(target, prop) {
      const v = (target as unknown as Record<string | symbol, unknown>)[prop];
      if (v === undefined) return () => { throw new Error(`not implemented: ${String(prop)}`); };
      return typeof v === "function" ? v.bind(target) : v;
    },
  }) as unknown as IndexBackend;
  return { backend, async dispose() { await node.dispose(); } };
});
