import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { json, startTestServer, type TestServer } from "../support/test-server.js";

// GET /entities over HTTP on every bundled sample file. The groups below were
// read by hand from the records (persons and organizations of each article):
//
//   joe biden      34 articles (26 of 2023-07-02, 3 of 2020-03-18, 5 of the 2020-02-22 BigQuery extract)
//   jill biden     "lady jill biden" 6 articles, "jill biden" 2, never both in one article
//   hunter biden   5 articles
//   kyocera        "kyocera corporation", "kyocera", "kyocera co" all in article 20230702153000-571,
//                  which also names "kyocera company profile" (another key)
//   baltimore police department   17 articles; no organization spelling holds the word "bpd"
//   nasdaq         "nasdaq" in 8 articles, and "national association of securities dealers automated quotation" in 1

interface Group {
  entity_id: string;
  type: string;
  canonical: string;
  aliases: Array<{ value: string; count: number; match: string }>;
  articles: number;
  confidence: number;
  entity_resolution_version: string;
}

interface Body {
  type: string;
  q: string;
  entities: Group[];
  approximate: boolean;
  limit: number;
  credits_charged: number;
  partial: boolean;
  coverage: string;
  history_days: number | null;
  from_clamped: boolean;
  attribution: string;
  [field: string]: unknown;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

async function entities(query: string, key?: string): Promise<{ body: Body; headers: Headers }> {
  const response = await server.get(`/entities?${query}`, key);
  expect(response.status, query).toBe(200);
  return { body: await json<Body>(response), headers: response.headers };
}

describe("GET /entities", () => {
  it("groups spellings by key, prefix matches on word boundaries ranked by articles, with the full envelope", async () => {
    const { body, headers } = await entities("q=biden&type=person");
    expect(Object.keys(body)).toEqual([
      "type",
      "q",
      "entities",
      "approximate",
      "limit",
      "partial",
      "coverage",
      "history_days",
      "from_clamped",
      "credits_charged",
      "attribution",
    ]);
    expect(body).toMatchObject({
      type: "person",
      q: "biden",
      approximate: false,
      limit: 10,
      partial: false,
      coverage: "complete",
    });
    expect(body.entities.map((g) => [g.entity_id, g.articles, g.confidence])).toEqual([
      ["person:joe biden", 34, 0.8],
      ["person:jill biden", 8, 0.8],
      ["person:hunter biden", 5, 0.8],
    ]);
    const jill = body.entities[1] as Group;
    expect(jill).toEqual({
      entity_id: "person:jill biden",
      type: "person",
      canonical: "lady jill biden",
      aliases: [
        { value: "lady jill biden", count: 6, match: "prefix" },
        { value: "jill biden", count: 2, match: "prefix" },
      ],
      articles: 8,
      confidence: 0.8,
      entity_resolution_version: "er-v1",
    });
    expect(body.credits_charged).toBe(1);
    expect(headers.get("x-credits-charged")).toBe("1");
  });

  it("an exact name ranks first, honorifics and suffixes folded into the group", async () => {
    const jill = await entities("q=Dr.+Jill+Biden&type=person");
    expect(jill.body.entities[0]).toMatchObject({
      entity_id: "person:jill biden",
      canonical: "lady jill biden",
      confidence: 1,
      articles: 8,
    });
    expect(jill.body.entities[0]?.aliases.map((a) => a.match)).toEqual(["exact", "exact"]);

    const kyocera = await entities("q=Kyocera+Corp.&type=organization");
    expect(kyocera.body.entities.map((g) => [g.entity_id, g.confidence, g.articles])).toEqual([
      ["organization:kyocera", 1, 1],
      ["organization:kyocera company profile", 0.8, 1],
    ]);
    const aliases = kyocera.body.entities[0]?.aliases ?? [];
    expect(aliases.map((a) => a.value).sort()).toEqual(["kyocera", "kyocera co", "kyocera corporation"]);
    expect(aliases.map((a) => a.count)).toEqual([1, 1, 1]);
  });

  it("the ids it returns filter /search to the same articles", async () => {
    const { body } = await entities("q=biden&type=person");
    for (const group of body.entities) {
      const search = await json<{ total: number }>(await server.get(`/search?entity_id=${encodeURIComponent(group.entity_id)}`));
      expect(search.total, group.entity_id).toBe(group.articles);
    }
  });

  it("looks for an acronym in a second pass, only when the first grouped nothing, for 2 credits", async () => {
    const bpd = await entities("q=BPD&type=organization");
    expect(bpd.body.entities.map((g) => [g.entity_id, g.confidence, g.articles, g.aliases[0]?.match])).toEqual([
      ["organization:baltimore police department", 0.6, 17, "acronym"],
    ]);
    expect(bpd.body.credits_charged).toBe(2);

    // "nasdaq" is a spelling of its own: the first pass finds it and the long form is another id (spec rule 4).
    const nasdaq = await entities("q=Nasdaq&type=organization");
    expect(nasdaq.body.entities.map((g) => g.entity_id)).toEqual(["organization:nasdaq"]);
    expect(nasdaq.body.credits_charged).toBe(1);
  });

  it("counts within the window, and an empty list when nothing is spelled so there", async () => {
    const recent = await entities("q=joe+biden&type=person&from=2023-01-01");
    expect(recent.body.entities[0]).toMatchObject({ entity_id: "person:joe biden", articles: 26 });
    const none = await entities("q=biden&type=person&from=2024-01-01");
    expect(none.body.entities).toEqual([]);
    expect(none.body.coverage).toBe("complete");
    const limited = await entities("q=biden&type=person&limit=1");
    expect(limited.body.entities.map((g) => g.entity_id)).toEqual(["person:joe biden"]);
  });

  it("looks among the values of the type asked for", async () => {
    const author = await entities("q=The+Associated+Press&type=author");
    expect(author.body.entities[0]).toMatchObject({ entity_id: "author:associated press", confidence: 1 });
    expect(author.body.entities[0]?.aliases.map((a) => a.value.toLowerCase()).sort()).toEqual([
      "associated press",
      "the associated press",
    ]);
    const source = await entities("q=TheHindu.com&type=source");
    expect(source.body.entities[0]).toMatchObject({ entity_id: "source:thehinducom", canonical: "thehindu.com", confidence: 1 });
    const search = await json<{ total: number }>(await server.get("/search?source=thehindu.com"));
    expect(source.body.entities[0]?.articles).toBe(search.total);
  });

  it("prices 1 to 2 credits, previews and max_credits", async () => {
    const preview = await entities("q=biden&type=person&estimate=true");
    expect(preview.body).toMatchObject({ estimate: true, credits: { min: 1, max: 2 } });
    await expectError(await server.get("/entities?q=biden&type=person&max_credits=1"), 400, "credit_budget_exceeded");
  });

  it("refuses a missing or unknown type, a missing or empty name", async () => {
    const unknownType = await expectError(await server.get("/entities?q=biden&type=people"), 400, "invalid_parameter");
    expect(unknownType.detail).toMatch(/organization, person/);
    await expectError(await server.get("/entities?q=biden"), 400, "invalid_parameter");
    await expectError(await server.get("/entities?type=person"), 400, "invalid_parameter");
    await expectError(await server.get("/entities?q=...&type=person"), 400, "invalid_parameter");
    await expectError(await server.get("/entities?q=biden&type=person&source=x"), 400, "unknown_parameter");
  });
});
