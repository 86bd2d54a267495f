import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { readArticles } from "../support/gkg-fixtures.js";
import { testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";
import { SAMPLE_FILES } from "../support/test-server.js";

// OpenSearchIndex.bulkLoad (port: ArticleStore.bulkLoad), on a real node:
// inside a load the monthly indices it writes stop refreshing; when it returns,
// whether the load succeeded or threw, every article is searchable and every
// monthly index has its refresh interval back (once the last of the loads
// under way at once has ended).

describe("OpenSearchIndex bulk load", () => {
  let node: TestOpenSearch;
  let index: OpenSearchIndex;
  let articles: ArticleDetail[];

  beforeAll(async () => {
    node = await testOpenSearch();
    index = new OpenSearchIndex(node.client, { prefix: node.prefix });
    articles = await readArticles([SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016]);
  });

  afterAll(async () => {
    await node?.dispose();
  });

  const refreshIntervals = async (): Promise<Array<string | undefined>> => {
    const { body } = await node.client.indices.getSettings({ index: index.names.articlePattern });
    return Object.values(body).map(
      (s) => (s as { settings: { index: { refresh_interval?: string } } }).settings.index.refresh_interval,
    );
  };

  it("makes every article searchable when it returns, and pauses refreshes only while it runs", async () => {
    const half = Math.floor(articles.length / 2);
    let during: Array<string | undefined> = [];
    const outcome = await index.bulkLoad(async () => {
      const first = await index.write(articles.slice(0, half));
      const second = await index.write(articles.slice(half));
      during = await refreshIntervals();
      return first.inserted + second.inserted;
    });
    expect(outcome).toBe(articles.length);
    // Two months (2016 and 2023), both paused during the load.
    expect(during).toEqual(["-1", "-1"]);
    expect(await refreshIntervals()).toEqual([undefined, undefined]);
    expect(await index.count()).toBe(articles.length);
  });

  it("makes what a failed load wrote searchable too, and passes its error on", async () => {
    const extra = articles.slice(0, 10).map((a, i) => ({ ...a, id: `20230703000000-${900000 + i}`, story_id: null }));
    await expect(
      index.bulkLoad(async () => {
        await index.write(extra);
        throw new Error("the source broke");
      }),
    ).rejects.toThrow("the source broke");
    expect(await refreshIntervals()).toEqual([undefined, undefined]);
    expect(await index.count()).toBe(articles.length + extra.length);
  });

  it("shares the pause between loads under way at once: each one's articles are searchable when it ends", async () => {
    const inner = articles.slice(0, 5).map((a, i) => ({ ...a, id: `20230703000000-${910000 + i}`, story_id: null }));
    const outer = articles.slice(0, 5).map((a, i) => ({ ...a, id: `20230703000000-${920000 + i}`, story_id: null }));
    const before = await index.count();
    let afterInner = 0;
    let pausedAfterInner: Array<string | undefined> = [];
    await index.bulkLoad(async () => {
      await index.write(outer);
      await index.bulkLoad(() => index.write(inner));
      afterInner = await index.count();
      pausedAfterInner = await refreshIntervals();
    });
    // The inner load refreshed what was written, and left the pause to the outer load still running.
    expect(afterInner).toBe(before + inner.length + outer.length);
    expect(pausedAfterInner).toContain("-1");
    expect(await refreshIntervals()).toEqual([undefined, undefined]);
  });
});
