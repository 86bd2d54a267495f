import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { entityIdOf, entityKey } from "../../src/domain/entities/entity-key.js";
import { expectError } from "../support/expect-error.js";
import { TestClock } from "../support/test-clock.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// The plan's reach (spec section 8, third plan limit) on id endpoints: nothing
// published before a plan reaches is served, by id or otherwise, and every id
// endpoint says so the same way: 400 `invalid_parameter` on `id`, charged
// nothing, naming the plan's reach and not absence. `from` is clamped, never
// refused. The clock stands a week after the 2023 batch, so a free key (30
// days) reaches the 2023 batch and not the 2016 one.

interface Hit {
  id: string;
  story_id: string;
  persons: string[];
}

const clock = new TestClock(Date.UTC(2023, 6, 9, 12, 0, 0));
let server: TestServer;
let freeKey: string;
let old: Hit;
let recent: Hit;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023, SAMPLE_FILES.batch2016], plans: ["free"], clock });
  freeKey = server.keys.free as string;
  const first = async (window: string): Promise<Hit> => {
    const body = await json<{ results: Hit[] }>(await server.get(`/search?${window}&limit=50`));
    const hit = body.results.find((h) => h.persons.length > 0) ?? body.results[0];
    if (hit === undefined) throw new Error(`no article in ${window}`);
    return hit;
  };
  old = await first("from=2016-01-01&to=2016-01-02");
  recent = await first("from=2023-07-02&to=2023-07-02");
});

afterAll(async () => {
  await server.close();
});

/** What the free key's tenant has used this month. */
async function used(): Promise<number> {
  return Number((await server.get("/account", freeKey)).headers.get("x-credits-used"));
}

/** The refusal every id endpoint gives for a record beyond the plan's reach. */
async function expectBeyondReach(path: string, subject: string): Promise<string> {
  const before = await used();
  const response = await server.get(path, freeKey);
  const body = await expectError(response, 400, "invalid_parameter");
  expect(body.parameter).toBe("id");
  expect(body.detail).toContain(`${subject} exists, but it is older than your plan reaches`);
  expect(body.detail).toContain("history_days 30");
  expect(body.detail).toContain("not a statement that it is absent");
  expect(response.headers.get("x-credits-charged")).toBe("0");
  expect(await used()).toBe(before);
  // Its detail, the subject left out: the same words on every id endpoint.
  return body.detail.replace(subject, "");
}

describe("an id beyond the plan's reach", () => {
  it("GET /doc/{id}: not served to a plan that does not reach it, served to one that does", async () => {
    await expectBeyondReach(`/doc/${old.id}`, `Article ${old.id}`);
    expect((await server.get(`/doc/${old.id}`)).status).toBe(200);
    expect((await server.get(`/doc/${recent.id}`, freeKey)).status).toBe(200);
    // Absence is still absence, for any plan: a cacheable 404.
    await expectError(await server.get("/doc/20160101020000-999999", freeKey), 404, "not_found");
  });

  it("GET /similar/{id}: a seed beyond the reach is refused the same way, before any ranking", async () => {
    await expectBeyondReach(`/similar/${old.id}`, `Article ${old.id}`);
  });

  it("GET /stories/{id}: the same refusal, whatever `from` says, and `from` itself is clamped, never refused", async () => {
    const plain = await expectBeyondReach(`/stories/${old.story_id}`, `Story ${old.story_id}`);
    const withFrom = await expectBeyondReach(`/stories/${old.story_id}?from=2015-01-01`, `Story ${old.story_id}`);
    expect(withFrom).toBe(plain);
    const doc = await expectBeyondReach(`/doc/${old.id}`, `Article ${old.id}`);
    expect(doc).toBe(plain);

    const response = await server.get(`/stories/${recent.story_id}?from=2020-01-01`, freeKey);
    expect(response.status).toBe(200);
    const body = await json<{ story_id: string; from_clamped: boolean; history_days: number }>(response);
    expect(body.story_id).toBe(recent.story_id);
    expect(body.from_clamped).toBe(true);
    expect(body.history_days).toBe(30);
  });

  it("graph seeds: an entity named only beyond the reach is resolved in the clamped window, a 200 that says so", async () => {
    let person: string | undefined;
    for (const name of old.persons) {
      const hits = await json<{ total: number }>(await server.get(`/search?person=${encodeURIComponent(name)}&limit=1`, freeKey));
      if (hits.total === 0) {
        person = name;
        break;
      }
    }
    if (person === undefined) throw new Error("every person of the 2016 article is also named in 2023");
    const id = encodeURIComponent(entityIdOf("person", entityKey("person", person)));
    const response = await server.get(`/graph/related?entity_id=${id}&from=2015-01-01&evidence=0`, freeKey);
    expect(response.status).toBe(200);
    const body = await json<{ from_clamped: boolean; seed: { aliases_used: string[] } }>(response);
    expect(body.from_clamped).toBe(true);
    expect(body.seed.aliases_used).toEqual([]);
    // The archive plan finds it there.
    const archive = await json<{ seed: { aliases_used: string[] } }>(
      await server.get(`/graph/related?entity_id=${id}&from=2015-01-01&evidence=0`),
    );
    expect(archive.seed.aliases_used).toContain(person);
  });
});
