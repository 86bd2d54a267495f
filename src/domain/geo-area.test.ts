import ngeohash from "ngeohash";
import { describe, expect, it } from "vitest";
import { boundingBox, geohashCells, inArea, matchedLocations, MAX_GEOHASH_CELLS } from "./geo-area.js";
import { candidateCharge, priceOf } from "./pricing.js";

describe("geographic areas", () => {
  it("counts a box's geohash cells, both sides of the antimeridian together", () => {
    const row = (east: number) => geohashCells({ south: 0.01, west: 0.01, north: 0.1, east }).length;
    expect(row(255 * 0.3515625 + 0.3)).toBe(MAX_GEOHASH_CELLS);
    expect(row(0.01 + 256 * 0.3515625)).toBe(MAX_GEOHASH_CELLS + 1);
    const across = geohashCells({ south: -19, west: 178, north: -17, east: -179 });
    expect(across).toContain(ngeohash.encode(-18, 178.5, 4));
    expect(across).toContain(ngeohash.encode(-18, -179.5, 4));
    expect(across.length).toBeLessThan(MAX_GEOHASH_CELLS);
  });

  it("matches points inside a box crossing the antimeridian, and within a radius", () => {
    const fiji = { kind: "bbox" as const, south: -19, west: 178, north: -17, east: -179 };
    expect(inArea(fiji, -18.1333, 178.417)).toBe(true);
    expect(inArea(fiji, -18, -179.5)).toBe(true);
    expect(inArea(fiji, -18, 0)).toBe(false);
    const near = { kind: "near" as const, latitude: 0, longitude: 179.9, radius_km: 50 };
    expect(inArea(near, 0, -179.9)).toBe(true);
    expect(boundingBox(near).west).toBeGreaterThan(boundingBox(near).east);
  });

  it("lists matched cities nearest first, once each, cities only", () => {
    const city = (name: string, latitude: number, longitude: number) => ({
      country: "FR",
      kind: "city" as const,
      latitude,
      longitude,
      location_id: null,
      name,
      region_id: null,
      subregion_id: null,
    });
    const details = [
      city("Versailles", 48.8049, 2.1204),
      city("Paris", 48.8566, 2.3522),
      { ...city("France", 46, 2), kind: "country" as const },
      city("Paris", 48.8566, 2.3522),
    ];
    const found = matchedLocations(details, { kind: "near", latitude: 48.8566, longitude: 2.3522, radius_km: 50 });
    expect(found.map((l) => l.name)).toEqual(["Paris", "Versailles"]);
    expect(found[0]?.distance_km).toBe(0);
  });
});

describe("candidate pricing", () => {
  it("charges the price's minimum plus each batch past the first, up to four", () => {
    const price = priceOf({
      operation: "search",
      mode: "recent",
      offset: 0,
      entityIds: 0,
      candidateFilter: true,
      percentilePass: false,
    });
    expect([price.min, price.max]).toEqual([3, 6]);
    expect([0, 1, 2, 4, 9].map((b) => candidateCharge(price, b))).toEqual([3, 3, 4, 6, 6]);
  });
});
