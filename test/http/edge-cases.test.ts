import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../support/expect-error.js";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Answers an outside client found wrong (issue 18): inherited object names
// taken for parameters, framework errors past the contract, unknown paths,
// 402 without credit headers, previews of free calls, loose numbers, ancient
// dates, long values echoed, and a story hidden by the plan window.

let server: TestServer;
let freeKey: string;
let story: string;
let member: string;

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023], plans: ["free"] });
  freeKey = server.keys.free as string;
  const hit = await json<{ results: Array<{ id: string; story_id: string }> }>(
    await server.get("/search?q=%22baltimore+block+party%22&limit=1"),
  );
  story = hit.results[0]?.story_id as string;
  member = hit.results[0]?.id as string;
});

afterAll(async () => {
  await server.close();
});

/** What the archive key's tenant has used this month. */
async function used(key = server.key): Promise<number> {
  return Number((await server.get("/account", key)).headers.get("x-credits-used"));
}

describe("names every object inherits", () => {
  const names = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "isPrototypeOf"];

  it.each(names)("refuses %s as unknown_parameter, free, on every endpoint", async (name) => {
    const before = await used();
    for (const path of ["/search", "/stories", "/top-headlines", "/account", `/doc/${member}`, `/stories/${story}`]) {
      const response = await server.get(`${path}?${name}=1`);
      const body = await expectError(response, 400, "unknown_parameter");
      expect(body.detail, path).toContain(`'${name}'`);
      expect(response.headers.get("x-credits-charged")).toBe("0");
    }
    expect(await used()).toBe(before);
  });
});

describe("framework errors answer the spec's body, after the key check", () => {
  it("refuses an id longer than its parameter allows as invalid_parameter, not 414", async () => {
    await expectError(await server.get(`/doc/${"a".repeat(300)}`), 400, "invalid_parameter");
    await expectError(await server.get(`/stories/${"a".repeat(300)}`), 400, "invalid_parameter");
    // Within the parameter's bounds a long id is simply absent.
    await expectError(await server.get(`/doc/${"a".repeat(150)}`), 404, "not_found");
    await expectError(await server.get(`/doc/${"a".repeat(300)}`, null), 401, "unauthorized");
  });

  it.each(["/doc/%ZZ", "/doc/%FF", "/stories/%E0%A4", "/search%ZZ", "/no/such/%C0"])(
    "answers %s with 401 without a key and 400 invalid_parameter with one",
    async (path) => {
      await expectError(await server.get(path, null), 401, "unauthorized");
      const response = await server.get(path);
      const body = await expectError(response, 400, "invalid_parameter");
      expect(body.detail).toContain("percent-encoded");
      expect(response.headers.get("x-credits-charged")).toBe("0");
      expect(JSON.stringify(body)).not.toContain("FST_");
    },
  );

  it("answers a request head too large to read with the spec's body", async () => {
    for (const key of [server.key, null]) {
      const response = await server.get(`/search?q=${"a".repeat(100_000)}`, key);
      const body = await expectError(response, 400, "invalid_parameter");
      expect(body.detail).toContain("16 KB");
    }
  });
});

describe("a path that names no endpoint", () => {
  it("is 400 invalid_parameter naming the closest endpoint, with the credit headers, never 404 not_found", async () => {
    const before = await used();
    const response = await server.get("/serach?q=x");
    const body = await expectError(response, 400, "invalid_parameter");
    expect(body.detail).toContain("GET /search");
    expect(body.parameter).toBe("path");
    expect(response.headers.get("x-credits-charged")).toBe("0");
    expect(response.headers.get("x-credits-per-minute")).toBe("3000");
    expect(await used()).toBe(before);
    await expectError(await server.get("/v1/nope"), 400, "invalid_parameter");
    await expectError(
      await fetch(`${server.url}/search`, { method: "POST", headers: { "x-api-key": server.key } }),
      400,
      "invalid_parameter",
    );
  });

  it("is still 401 without a key", async () => {
    await expectError(await server.get("/serach", null), 401, "unauthorized");
  });

  it("takes a path parameter only in the path, checked after the key", async () => {
    await expectError(await server.get(`/doc/${member}?id=x`, null), 401, "unauthorized");
    const refused = await server.get(`/doc/${member}?id=x`);
    await expectError(refused, 400, "unknown_parameter");
    expect(refused.headers.get("x-credits-charged")).toBe("0");
  });
});

describe("a suspended tenant", () => {
  it("answers 402 with the credit headers, as every authenticated response", async () => {
    const issued = await server.container.accounts.issueKey("suspended-headers", "build");
    await server.get("/search?limit=1", issued.key);
    await server.container.accounts.setSuspended("suspended-headers", true);
    for (const path of ["/search?limit=1", "/account", "/nope"]) {
      const response = await server.get(path, issued.key);
      await expectError(response, 402, "suspended");
      expect(response.headers.get("x-credits-charged"), path).toBe("0");
      expect(response.headers.get("x-credits-used"), path).toBe("1");
      expect(response.headers.get("x-credits-limit"), path).toBe("50000");
      expect(response.headers.get("x-credits-per-minute"), path).not.toBeNull();
    }
  });
});

describe("estimate and max_credits on a free endpoint", () => {
  it("previews /account at 0 credits", async () => {
    const before = await used();
    const response = await server.get("/account?estimate=true");
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ estimate: true, credits: { min: 0, max: 0 }, would_run: true, credits_charged: 0 });
    expect(response.headers.get("x-credits-charged")).toBe("0");
    expect((await json(await server.get("/account?max_credits=0"))).plan).toBe("archive");
    expect(await used()).toBe(before);
  });
});

describe("estimate with max_credits, and booleans in any case", () => {
  it("previews a call whose worst case is above max_credits, saying it would not run, instead of refusing it", async () => {
    const before = await used();
    const response = await server.get("/search?q=biden&max_credits=0&estimate=true");
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ estimate: true, would_run: false, refusal: "credit_budget_exceeded", credits_charged: 0 });
    expect((body.credits as { max: number }).max).toBeGreaterThan(0);
    expect(response.headers.get("x-credits-charged")).toBe("0");
    // Within the budget the preview says it would run; without `estimate` the budget still refuses.
    expect(await json(await server.get("/search?q=biden&max_credits=10&estimate=true"))).toMatchObject({ would_run: true });
    await expectError(await server.get("/search?q=biden&max_credits=0"), 400, "credit_budget_exceeded");
    expect(await used()).toBe(before);
  });

  it("reads booleans whatever their case, like enum values, and refuses anything else", async () => {
    for (const value of ["TRUE", "True", "true"]) {
      const body = await json(await server.get(`/search?q=biden&estimate=${value}`));
      expect(body.estimate, value).toBe(true);
    }
    expect((await json(await server.get("/search?q=biden&limit=1&estimate=FALSE"))).results).toBeDefined();
    expect((await json(await server.get("/search?q=biden&limit=1&view=COMPACT"))).results).toBeDefined();
    for (const value of ["1", "yes", "t"]) {
      const refused = await expectError(await server.get(`/search?q=biden&estimate=${value}`), 400, "invalid_parameter");
      expect(refused.detail).toContain("true or false");
    }
  });
});

describe("numbers are decimal digits", () => {
  it.each(["limit=0x10", "limit=0b11", "limit=1e1", "limit=5.0", "limit=%205", "limit=+5", "max_credits=1e3", "offset=0o7"])(
    "refuses %s as invalid_parameter",
    async (query) => {
      const response = await server.get(`/search?${query}`);
      const body = await expectError(response, 400, "invalid_parameter");
      expect(body.detail).toContain("integer");
      expect(response.headers.get("x-credits-charged")).toBe("0");
    },
  );

  it("still reads plain digits", async () => {
    expect((await server.get("/search?limit=5&max_credits=10")).status).toBe(200);
    expect((await server.get("/search?limit=05")).status).toBe(200);
  });
});

describe("empty values", () => {
  it.each(["view=", "source=", "q=", "language=", "limit=", "estimate=", "from="])(
    "refuse %s as invalid_parameter",
    async (query) => {
      const body = await expectError(await server.get(`/search?${query}`), 400, "invalid_parameter");
      expect(body.detail).toContain("is empty");
    },
  );
});

describe("a from before the year 100", () => {
  it("is clamped, never refused", async () => {
    const archive = await json<{ from_clamped: boolean; total: number }>(await server.get("/search?from=0001-01-01&limit=1"));
    expect(archive.from_clamped).toBe(false);
    expect(archive.total).toBe((await json<{ total: number }>(await server.get("/search?limit=1"))).total);
    const free = await server.get("/search?from=0001-01-01&limit=1", freeKey);
    expect(free.status).toBe(200);
    expect((await json<{ from_clamped: boolean }>(free)).from_clamped).toBe(true);
    expect((await server.get("/search?from=00010101000000&to=0099-12-31")).status).toBe(200);
  });
});

describe("a long value in a refusal", () => {
  it("is quoted as a short prefix, not echoed whole", async () => {
    const q = "x".repeat(10_000);
    const body = await expectError(await server.get(`/search?q=${q}`), 400, "invalid_parameter");
    expect(body.detail).not.toContain("x".repeat(100));
    expect(body.detail).toContain("10000 characters");
    expect(JSON.stringify(body).length).toBeLessThan(600);
    const name = await expectError(await server.get(`/search?${"y".repeat(5_000)}=1`), 400, "unknown_parameter");
    expect(JSON.stringify(name).length).toBeLessThan(1_500);
  });
});

describe("a story older than the plan reaches", () => {
  it("is not a cacheable 404 while its articles are readable", async () => {
    // Its articles are beyond the plan's reach too: the same refusal on /doc (test/http/plan-reach.test.ts).
    await expectError(await server.get(`/doc/${member}`, freeKey), 400, "invalid_parameter");
    const response = await server.get(`/stories/${story}`, freeKey);
    const body = await expectError(response, 400, "invalid_parameter");
    expect(body.detail).toContain("plan");
    expect(response.headers.get("x-credits-charged")).toBe("0");
    // The archive plan reads it; a window that excludes it is the same refusal, naming the window.
    expect((await server.get(`/stories/${story}`)).status).toBe(200);
    const outside = await expectError(await server.get(`/stories/${story}?from=2024-01-01`), 400, "invalid_parameter");
    expect(outside.detail).toContain("'from'");
  });

  it("leaves 404 for a story that no index holds", async () => {
    await expectError(await server.get("/stories/20230702153000-999999999", freeKey), 404, "not_found");
  });
});
