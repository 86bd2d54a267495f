import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { json, SAMPLE_FILES, startTestServer, type TestServer } from "../support/test-server.js";

// Semantic and hybrid ranking keep every shared filter: the geographic and
// amount filters check the ranked candidates, signal_percentile_min bounds
// them first. Real sample, embedded with the shipped model.

type Body = Record<string, unknown>;
type Hit = {
  id: string;
  matched_locations?: Array<{ distance_km?: number }>;
  signals?: {
    industries: Record<string, number>;
    business_context: Record<string, number>;
    risk_context: Record<string, number>;
  };
};

let server: TestServer;

async function get(path: string): Promise<{ status: number; body: Body; credits: string | null }> {
  const response = await server.get(path);
  return { status: response.status, body: await json(response), credits: response.headers.get("x-credits-charged") };
}

beforeAll(async () => {
  server = await startTestServer({ files: [SAMPLE_FILES.batch2023], embed: true });
});

afterAll(async () => {
  await server?.close();
});

describe("semantic and hybrid ranking with the derived-field filters", () => {
  it("near keeps only candidates mentioning a city within the radius, nearest first, and charges the batch", async () => {
    const q = encodeURIComponent("gunfire at a neighbourhood celebration");
    const all = await get(`/search?q=${q}&mode=semantic&limit=100`);
    const near = await get(`/search?q=${q}&mode=semantic&near=39.2904,-76.6122&radius_km=50&limit=100`);
    expect(near.status).toBe(200);
    const hits = near.body.results as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    expect(near.body.total as number).toBeLessThan(all.body.total as number);
    for (const hit of hits) {
      expect(hit.matched_locations?.length).toBeGreaterThan(0);
      expect(hit.matched_locations?.[0]?.distance_km).toBeLessThanOrEqual(50);
    }
    // Semantic 2, a credit per batch of 500 candidates checked, one for the derived-field check.
    expect(near.credits).toBe(String(2 + Math.ceil((all.body.total as number) / 500) + 1));
    const hybrid = await get(`/search?q=${q}&mode=hybrid&near=39.2904,-76.6122&radius_km=50&limit=100&view=compact`);
    expect(hybrid.status).toBe(200);
    expect((hybrid.body.results as Hit[]).length).toBeGreaterThan(0);
  });

  it("amount_min keeps only candidates with an amount at or above it", async () => {
    const found = await get(
      `/search?q=${encodeURIComponent("money paid by the government")}&mode=semantic&amount_min=1000000&limit=20`,
    );
    expect(found.status).toBe(200);
    const hits = found.body.results as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const doc = (await get(`/doc/${hit.id}`)).body as { amounts: Array<{ number: number | null }> };
      expect(doc.amounts.some((a) => a.number !== null && a.number >= 1_000_000)).toBe(true);
    }
  });

  it("signal_percentile_min reports its threshold and every result carries the signal at or above it", async () => {
    const found = await get(
      `/search?q=${encodeURIComponent("hospital patients")}&mode=semantic&signal=healthcare&signal_percentile_min=75&limit=20`,
    );
    expect(found.status).toBe(200);
    const threshold = found.body.signal_threshold as { name: string; percentile: number; value: number };
    expect(threshold).toMatchObject({ name: "healthcare", percentile: 75 });
    expect(typeof threshold.value).toBe("number");
    const hits = found.body.results as Hit[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.signals?.industries.healthcare).toBeGreaterThanOrEqual(threshold.value);
  });

  it("/stories with mode=semantic and near lists only stories of checked candidates", async () => {
    const q = encodeURIComponent("gunfire at a neighbourhood celebration");
    const all = await get(`/stories?q=${q}&mode=semantic&limit=100`);
    const near = await get(`/stories?q=${q}&mode=semantic&near=39.2904,-76.6122&radius_km=50&limit=100`);
    expect(near.status).toBe(200);
    expect(near.body.total as number).toBeGreaterThan(0);
    expect(near.body.total as number).toBeLessThan(all.body.total as number);
  });
});
