import ngeohash from "ngeohash";
import { describe, expect, it } from "vitest";
import { boundingBox, cellCount, geohashCover, inArea, matchedLocations, MAX_GEOHASH_CELLS, type LatLonBox } from "./geo-area.js";
import { candidateCharge, priceOf } from "./pricing.js";

describe("geographic areas", () => {
  it("counts a box's geohash cells as ngeohash lays them out, both sides of the antimeridian together", () => {
    const listed = (box: LatLonBox, precision: number) => {
      const parts =
        box.west > box.east
          ? [
              { ...box, east: 180 },
              { ...box, west: -180 },
            ]
          : [box];
      return new Set(parts.flatMap((p) => ngeohash.bboxes(p.south, p.west, p.north, p.east, precision))).size;
    };
    const boxes: LatLonBox[] = [
      { south: 0.01, west: 0.01, north: 0.1, east: 0.01 + 256 * 0.3515625 },
      { south: -19, west: 178, north: -17, east: -179 },
      { south: 42, west: -5, north: 51, east: 8 },
      { south: -90, west: -180, north: 90, east: 180 },
      { south: 0, west: 0, north: 0, east: 0 },
    ];
    // A deterministic spread of boxes, some across the antimeridian.
    for (let i = 0; i < 40; i++) {
      const south = ((i * 37) % 170) - 85;
      const west = ((i * 71) % 360) - 180;
      boxes.push({
        south,
        west,
        north: Math.min(90, south + ((i * 13) % 9) + 0.3),
        east: ((west + 180 + ((i * 29) % 40) + 0.7) % 360) - 180,
      });
    }
    for (const box of boxes) for (const precision of [1, 2, 3]) expect(cellCount(box, precision)).toBe(listed(box, precision));
    expect(cellCount(boxes[0] as LatLonBox, 4)).toBe(listed(boxes[0] as LatLonBox, 4));
  });

  it("picks the finest precision whose cover needs at most 256 cells, so every area fits", () => {
    const bbox = (south: number, west: number, north: number, east: number) =>
      geohashCover({ kind: "bbox", south, west, north, east });
    // France: precision 4 would take about 1,900 cells.
    expect(cellCount({ south: 42, west: -5, north: 51, east: 8 }, 4)).toBeGreaterThan(MAX_GEOHASH_CELLS);
    expect(bbox(42, -5, 51, 8).precision).toBe(3);
    expect(bbox(-50, 170, -30, -170).cells).toBeLessThanOrEqual(MAX_GEOHASH_CELLS);
    expect(bbox(-90, -180, 90, 180)).toEqual({ precision: 1, cells: 32 });
    expect(bbox(48.85, 2.35, 48.8501, 2.3501).precision).toBe(9);
    const wide = geohashCover({ kind: "near", latitude: 60, longitude: 179, radius_km: 2000 });
    expect(wide.cells).toBeLessThanOrEqual(MAX_GEOHASH_CELLS);
    expect(wide.cells).toBeGreaterThan(0);
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
