import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// Amount filters in the scaled shape, where amounts are flat terms rather than
// nested documents (src/adapters/opensearch/amount-keys.ts): over the bundled
// sample, every amount filter matches the same articles as the embedded index,
// and bounds met only by two different amounts of an article match nothing.

interface Page {
  total: number;
  results: Array<{ id: string }>;
}

interface Detailed {
  id: string;
  amounts: Array<{ number: number | null; object: string }>;
}

describe("amount filters, NEWSINDEX_INDEX=opensearch against the embedded index", () => {
  let node: TestOpenSearch;
  let scaled: TestServer;
  let embedded: TestServer;

  beforeAll(async () => {
    node = await testOpenSearch();
    [scaled, embedded] = await Promise.all([
      startTestServer({ config: { index: "opensearch", opensearchUrls: node.urls, opensearchPrefix: node.prefix } }),
      startTestServer(),
    ]);
  });

  afterAll(async () => {
    await scaled?.close();
    await embedded?.close();
    await node?.dispose();
  });

  /** The first articles with an amount, read whole (a search hit carries no amounts). */
  const withAmounts = async (): Promise<Detailed[]> => {
    const page = await json<Page>(await embedded.get("/search?amount_min=0&limit=60"));
    return Promise.all(page.results.map(async (r) => json<Detailed>(await embedded.get(`/doc/${encodeURIComponent(r.id)}`))));
  };

  const ids = async (server: TestServer, query: string): Promise<{ total: number; ids: string[] }> => {
    const page = await json<Page>(await server.get(`/search?${query}&limit=100`));
    return { total: page.total, ids: page.results.map((r) => r.id).sort() };
  };

  it("match the articles the embedded index matches, bounds and object on one amount", async () => {
    const amounts = (await withAmounts()).flatMap((r) => r.amounts.filter((a) => a.number !== null && a.object.trim() !== ""));
    expect(amounts.length).toBeGreaterThan(10);
    const common = amounts.find((a) => amounts.filter((b) => b.object.toLowerCase() === a.object.toLowerCase()).length >= 3);
    if (common?.number == null) throw new Error("the sample has no object with three amounts");
    const object = encodeURIComponent(common.object.toUpperCase());
    const n = common.number;
    const queries = [
      "amount_min=1000",
      "amount_max=5",
      `amount_min=${n}&amount_max=${n}`,
      `amount_object=${object}&amount_min=${n}`,
      `amount_object=${object}&amount_max=${n}`,
      `amount_object=${object}&amount_min=${n}&amount_max=${n}`,
      `amount_object=${object}&amount_min=${n + 0.5}&amount_max=${n + 1e9}`,
    ];
    for (const query of queries) {
      const [a, b] = await Promise.all([ids(scaled, query), ids(embedded, query)]);
      expect(a, query).toEqual(b);
    }
    expect((await ids(scaled, `amount_object=${object}&amount_min=${n}&amount_max=${n}`)).total).toBeGreaterThan(0);
  });

  it("match nothing when one amount meets the lower bound and another the upper", async () => {
    const article = (await withAmounts()).find((r) => {
      const numbers = r.amounts.flatMap((a) => (a.number === null ? [] : [a.number]));
      return new Set(numbers).size >= 2;
    });
    if (!article) throw new Error("the sample has no article with two different amounts");
    const numbers = [...new Set(article.amounts.flatMap((a) => (a.number === null ? [] : [a.number])))].sort((x, y) => x - y);
    const [low, high] = [numbers[0] as number, numbers[1] as number];
    // Between the two amounts: each bound is met by one of them, neither amount meets both.
    const query = `amount_min=${(low + high) / 2}&amount_max=${(low + high) / 2}`;
    const scaledIds = await ids(scaled, query);
    expect(scaledIds.ids).not.toContain(article.id);
    expect(scaledIds).toEqual(await ids(embedded, query));
  });
});
