import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import { names } from "../support/graph-brute-force.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { makeOldFormat } from "../support/old-format-index.js";
import { SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";
import { getOk } from "../support/get-ok.js";

// /graph/exposures `signal_stats` over a monthly index built before
// signals-v1: that index cannot give them, so the answer covers the other
// months, partial with coverage `field_unavailable`, never a figure that
// silently leaves the month out (/aggregate's signal metrics: derived-rebuild.test.ts).

interface Envelope {
  partial: boolean;
  coverage: string;
}

const OLD_MONTH = "202307";
const inOld = (a: ArticleDetail) => a.id.startsWith("2023");
const conflictOf = (a: ArticleDetail) => a.signals?.risk_context.conflict;

let server: TestServer;
let articles: ArticleDetail[];

beforeAll(async () => {
  server = await startTestServer();
  articles = await readArticles(Object.values(SAMPLE_FILES));
  makeOldFormat(join(server.dataDir, "index", `articles-${OLD_MONTH}.db`));
});

afterAll(async () => {
  await server.close();
});

function get<T>(path: string): Promise<T & Envelope> {
  return getOk<T & Envelope>(server, path);
}

describe("signal_stats over an index built without signals", () => {
  it("/graph/exposures reports signal_stats from the other months, partial with coverage field_unavailable", async () => {
    const ids = ["person:joe biden", "person:donald trump"];
    const body = await get<{ signal_stats: Record<string, { mean: number; articles: number }> }>(
      `/graph/exposures?entity_id=${ids.map(encodeURIComponent).join(",")}&from=2015-01-01`,
    );
    expect(body).toMatchObject({ partial: true, coverage: "field_unavailable" });
    const shared = articles.filter((a) => ids.every((id) => names(a, id)));
    expect(shared.some(inOld)).toBe(true);
    const rest = shared.filter((a) => !inOld(a)).flatMap((a) => conflictOf(a) ?? []);
    expect(body.signal_stats.conflict?.articles).toBe(rest.length);
  });
});
