import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { realRows, tieGroup, writeGkgFile } from "../support/gkg-fixtures.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// /similar for a seed whose story is hundreds of copies of one page (a wire
// story, or the bench corpus's bursts): the copies share one vector, so they
// are one node of the month's nearest-neighbour graph with the rest listed
// beside it, and every one of them is left out. `graph` answers through the
// graph (its threshold 0), `exact` serves the same data dir by the exact scan.

const COPIES = 400;
const STAMP = "20230702160000";
const dir = mkdtempSync(join(tmpdir(), "newsindex-similar-story-"));
let graph: TestServer;
let exact: TestServer;

interface Page {
  results: Array<{ id: string; story_id: string | null }>;
  total: number;
}

beforeAll(async () => {
  // The Baltimore block-party shooting (record 4 of the batch), copied with ids of their own.
  const shooting = realRows().filter((fields) => fields[0] === "20230702153000-4");
  expect(shooting).toHaveLength(1);
  const copies = writeGkgFile(dir, `${STAMP}.gkg.csv`, tieGroup(shooting, COPIES, STAMP, "C"));
  graph = await startTestServer({
    dataDir: join(dir, "data"),
    files: [SAMPLE_FILES.batch2023, copies],
    embed: true,
    config: { annMinMatches: 0 },
  });
  exact = await startTestServer({ dataDir: join(dir, "data"), files: [], config: { annMinMatches: 1_000_000_000 } });
}, 600_000);

afterAll(async () => {
  await exact?.close();
  await graph?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function similar(server: TestServer, id: string): Promise<Page> {
  const response = await server.get(`/similar/${id}?limit=10&view=compact`);
  expect(response.status).toBe(200);
  return json<Page>(response);
}

describe("GET /similar/{id} for a seed whose story holds hundreds of copies", () => {
  it("leaves every copy out and answers a full page, the same as the exact scan", async () => {
    const seed = `${STAMP}-C17`;
    const doc = await json<{ story_id: string }>(await graph.get(`/doc/${seed}`));
    const story = await json<{ total: number }>(await graph.get(`/search?story_id=${doc.story_id}&limit=1`));
    expect(story.total).toBeGreaterThanOrEqual(COPIES);

    const fromGraph = await similar(graph, seed);
    expect(fromGraph.results).toHaveLength(10);
    for (const hit of fromGraph.results) expect(hit.story_id).not.toBe(doc.story_id);
    expect(new Set(fromGraph.results.map((h) => h.story_id)).size).toBe(10);
    const scanned = await similar(exact, seed);
    expect(fromGraph.results.map((h) => h.id)).toEqual(scanned.results.map((h) => h.id));
    expect(fromGraph.total).toBe(scanned.total);
  });
});
