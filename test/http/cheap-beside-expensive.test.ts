import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// Index reads run on read threads, and cheap reads in a lane of their own: a
// browse, an article or an account is answered while facets over the whole
// corpus are still being counted. The corpus is the real 2023-07-02
// batch copied into two months' worth of batches, so the scan reads ten
// thousand articles. No timing threshold: only the order in which the
// answers arrive.

const COPIES_PER_BATCH = 2_500;
const STAMPS = ["20230601000000", "20230615000000", "20230701000000", "20230715000000"];

let dir: string;
let server: TestServer;
let articleId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-busy-"));
  const rows = realRows();
  const files = STAMPS.map((stamp, i) =>
    writeGkgFile(dir, `${stamp}.gkg.csv`, tieGroup(rows, COPIES_PER_BATCH, stamp, `B${i}-`)),
  );
  server = await startTestServer({ files });
  articleId = `${STAMPS[0]}-B0-17`;
}, 600_000);

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Facets of eight many-valued fields over every English article: a scan of the whole corpus in one index call. */
const EXPENSIVE = "/search?language=eng&limit=1&facets=topic,organization,person,name,location,country,city,quote_verb";
const CHEAP = ["/search?limit=10", "/doc/", "/account"];

describe("a cheap request beside an expensive one", () => {
  it("is answered, again and again, while a scan of the whole corpus is still running", async () => {
    // Both lanes' threads started and their indexes opened first: a lane's first read also starts its thread.
    for (const path of ["/search?limit=1", "/search?q=police&limit=1&facets=source"]) {
      expect((await server.get(path)).status, path).toBe(200);
    }
    let expensiveDone = false;
    const expensive = server.get(EXPENSIVE).then(async (response) => {
      expensiveDone = true;
      expect(response.status).toBe(200);
      return json<{ total: number; facets: Record<string, unknown> }>(response);
    });
    // One cheap request at a time, each sent once the one before is answered. Were index reads on the event loop,
    // the scan would hold up all but the first of them until it ended.
    let answeredBefore = 0;
    for (let i = 0; !expensiveDone && i < 1000; i++) {
      const path = CHEAP[i % CHEAP.length] as string;
      const response = await server.get(path === "/doc/" ? `/doc/${articleId}` : path);
      expect(response.status, path).toBe(200);
      await response.arrayBuffer();
      if (!expensiveDone) answeredBefore++;
    }
    const body = await expensive;
    // Each kind answered during the scan; blocked reads would allow at most one. (How many more depends on what
    // else the machine runs: the suite's other files share its cores.)
    expect(answeredBefore).toBeGreaterThanOrEqual(CHEAP.length);
    // The scan did read the whole corpus.
    expect(body.total).toBeGreaterThan(COPIES_PER_BATCH * STAMPS.length * 0.5);
    expect(Object.keys(body.facets)).toHaveLength(8);
  });
});
