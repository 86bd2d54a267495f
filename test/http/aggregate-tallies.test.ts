import { readdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOk } from "../support/get-ok.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// GET /aggregate with no filter but the window reads each monthly index's time
// tallies, kept at write time, instead of its articles. The series must be the
// one counting the articles gives, bucket for bucket: compared here on the
// real samples with the articles' own count (an index whose tallies are not
// built answers from its articles), whatever the window's edges, after a
// re-ingest of the same files and after a story merge moves articles between
// stories; an index written before the tallies answers the same until
// `newsindex reindex` builds them.

interface Bucket {
  start: string | null;
  end: string;
  articles: number;
  stories?: number;
  outlets?: number;
  approximate: boolean;
}

interface Body {
  buckets: Bucket[];
  total: number;
  approximate: boolean;
  partial: boolean;
  coverage: string;
}

const METRICS = "metrics=stories,outlets";
/** Windows on whole days and hours, and cut at odd seconds, over every interval. */
const QUERIES = [
  `interval=hour&from=20230702000000&to=2023-07-02&${METRICS}`,
  `interval=hour&from=20230702101234&to=20230702164501&${METRICS}`,
  `interval=day&from=2023-06-20&to=2023-07-03&${METRICS}`,
  `interval=day&from=20230701123456&to=20230702153012&${METRICS}`,
  `interval=week&from=2023-06-01&to=2023-07-31&${METRICS}`,
  `interval=week&from=20230628071500&to=20230702152959&${METRICS}`,
  `interval=month&from=2020-01-01&to=2020-12-31&${METRICS}`,
  `interval=month&from=2016-01-01&to=2023-12-31`,
  `interval=all&from=20200101000000&to=20231231235959&${METRICS}`,
  `interval=all&from=20230702150017&to=20230702152958&${METRICS}`,
  `interval=day&from=2020-02-01&to=2020-03-31&metrics=outlets`,
];

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.spark, SAMPLE_FILES.bigquery] });
});

afterAll(async () => {
  await server.close();
});

function indexFiles(): string[] {
  const dir = join(server.dataDir, "index");
  return readdirSync(dir)
    .filter((name) => /^articles-\d{6}\.db$/.test(name))
    .map((name) => join(dir, name));
}

/** Runs `statements` on every monthly index, beside the server's connections. */
function onEveryIndex(statements: string): void {
  for (const path of indexFiles()) {
    const db = new Database(path, { fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      db.exec(statements);
    } finally {
      db.close();
    }
  }
}

async function series(): Promise<Array<{ query: string; body: Body }>> {
  const answers: Array<{ query: string; body: Body }> = [];
  for (const query of QUERIES) {
    const body = await getOk<Body>(server, `/aggregate?${query}`);
    answers.push({
      query,
      body: {
        buckets: body.buckets,
        total: body.total,
        approximate: body.approximate,
        partial: body.partial,
        coverage: body.coverage,
      },
    });
  }
  return answers;
}

/** The same series counted from the articles: the tallies set aside (as an index built before them), then restored. */
async function countedFromArticles(): Promise<Array<{ query: string; body: Body }>> {
  onEveryIndex("UPDATE meta SET value = 'set aside' WHERE key = 'tallies'");
  try {
    return await series();
  } finally {
    onEveryIndex("UPDATE meta SET value = 'v1' WHERE key = 'tallies'");
  }
}

async function expectSameAsArticles(): Promise<Array<{ query: string; body: Body }>> {
  const fromTallies = await series();
  const fromArticles = await countedFromArticles();
  for (const [i, { query, body }] of fromTallies.entries()) expect(body, query).toEqual(fromArticles[i]?.body);
  return fromTallies;
}

describe("GET /aggregate from the time tallies", () => {
  it("gives the series counting the articles gives, bucket for bucket, whatever the window's edges", async () => {
    const answers = await expectSameAsArticles();
    for (const { query, body } of answers) {
      expect(body.coverage, query).toBe("complete");
      expect(body.total, query).toBeGreaterThan(0);
    }
    // Not an empty comparison: the day series holds days with several stories and outlets.
    const days = answers.find((a) => a.query.startsWith("interval=day&from=2023-06-20"))?.body.buckets ?? [];
    expect(days.filter((b) => (b.stories ?? 0) > 1 && (b.outlets ?? 0) > 1).length).toBeGreaterThan(0);
  });

  it("answers the same after the same files are ingested again", async () => {
    const before = await series();
    const again = await (await server.container.ingestService()).ingest([SAMPLE_FILES.batch2023, SAMPLE_FILES.spark]);
    expect(again.records).toBeGreaterThan(0);
    expect(await series()).toEqual(before);
    await expectSameAsArticles();
  });

  it("keeps distinct stories right when a story merge moves articles between stories", async () => {
    const page = await json<{ stories: Array<{ story_id: string; count: number }> }>(
      await server.get("/stories?from=2023-07-02&to=2023-07-02&sort=count&limit=4"),
    );
    const [into, from, third] = page.stories;
    if (into === undefined || from === undefined || third === undefined)
      throw new Error("the sample holds fewer than three stories");
    const membersOf = async (storyId: string) =>
      (
        await json<{ results: Array<{ id: string }> }>(
          await server.get(`/search?story_id=${encodeURIComponent(storyId)}&limit=100`),
        )
      ).results.map((r) => r.id);
    const day = "interval=all&from=2023-07-02&to=2023-07-02&metrics=stories";
    const before = (await getOk<Body>(server, `/aggregate?${day}`)).buckets[0]?.stories ?? 0;
    // A whole story merged into another (its stories count falls by one), and one article of a third moved to a new story.
    const third1 = (await membersOf(third.story_id))[0] as string;
    await server.container.stories.relabel([
      { story_id: into.story_id, article_ids: await membersOf(from.story_id) },
      { story_id: "tally-test-new-story", article_ids: [third1] },
    ]);
    const after = (await getOk<Body>(server, `/aggregate?${day}`)).buckets[0]?.stories ?? 0;
    expect(third.count).toBeGreaterThan(1);
    expect(after).toBe(before - 1 + 1);
    await expectSameAsArticles();
  });

  it("an index written before the tallies answers from its articles, and `reindex` builds them to the same series", async () => {
    const fresh = await series();
    onEveryIndex(
      "DELETE FROM meta WHERE key = 'tallies'; DROP TABLE tallies; DROP TABLE tally_stories; DROP TABLE tally_outlets;",
    );
    expect(await series()).toEqual(fresh);
    const summary = await server.container.derived.rebuildDerived({});
    expect(summary.months.length).toBe(indexFiles().length);
    expect(await series()).toEqual(fresh);
    for (const path of indexFiles()) {
      const db = new Database(path, { readonly: true, fileMustExist: true });
      try {
        expect(db.prepare("SELECT value FROM meta WHERE key = 'tallies'").pluck().get(), path).toBe("v1");
      } finally {
        db.close();
      }
    }
    await expectSameAsArticles();
  });
});
