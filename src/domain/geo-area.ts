import { getBoundsOfDistance, getDistance } from "geolib";
import ngeohash from "ngeohash";
import type { LocationDetail } from "./article.js";

// The areas of the geographic filters (spec section 4: `near` + `radius_km`,
// `bbox`), matched against the coordinates of the cities an article mentions
// (rule 5). Geodesy is geolib's (great-circle distance on its Earth radius,
// the bounding box of a circle); geohash cells are ngeohash's.

/** A latitude/longitude box; `west` greater than `east` crosses the antimeridian. */
export interface LatLonBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export type GeoArea = { kind: "near"; latitude: number; longitude: number; radius_km: number } | ({ kind: "bbox" } & LatLonBox);

/** Geohash precision the `bbox` cell count is taken at: cells of 0.17578125° latitude by 0.3515625° longitude (about 20 km by 39 km at the equator). */
export const GEOHASH_PRECISION = 4;
/** An area needing more cells than this is refused (spec section 8). */
export const MAX_GEOHASH_CELLS = 256;

/** The geohash cells (at GEOHASH_PRECISION) covering a box; a box crossing the antimeridian is covered in two parts. */
export function geohashCells(box: LatLonBox): string[] {
  const parts: LatLonBox[] =
    box.west > box.east
      ? [
          { ...box, east: 180 },
          { ...box, west: -180 },
        ]
      : [box];
  const cells = new Set<string>();
  for (const p of parts) for (const cell of ngeohash.bboxes(p.south, p.west, p.north, p.east, GEOHASH_PRECISION)) cells.add(cell);
  return [...cells];
}

/** A box holding the whole area: the box itself, or the bounds of the circle (crossing the antimeridian when it does). */
export function boundingBox(area: GeoArea): LatLonBox {
  if (area.kind === "bbox") return area;
  const [sw, ne] = getBoundsOfDistance({ latitude: area.latitude, longitude: area.longitude }, area.radius_km * 1000);
  if (sw === undefined || ne === undefined) throw new Error("geolib gave no bounds");
  return { south: sw.latitude, west: sw.longitude, north: ne.latitude, east: ne.longitude };
}

export function inBox(box: LatLonBox, latitude: number, longitude: number): boolean {
  if (latitude < box.south || latitude > box.north) return false;
  return box.west <= box.east ? longitude >= box.west && longitude <= box.east : longitude >= box.west || longitude <= box.east;
}

/** Kilometres from the centre of a `near` area, to 0.1 km; undefined for a box. */
export function distanceKm(area: GeoArea, latitude: number, longitude: number): number | undefined {
  if (area.kind !== "near") return undefined;
  return getDistance({ latitude: area.latitude, longitude: area.longitude }, { latitude, longitude }, 0.1) / 1000;
}

/** The point is in the area: within the radius of `near` (great-circle), inside the `bbox`. */
export function inArea(area: GeoArea, latitude: number, longitude: number): boolean {
  if (area.kind === "bbox") return inBox(area, latitude, longitude);
  return (distanceKm(area, latitude, longitude) as number) <= area.radius_km;
}

/** A mentioned city that matched `near` or `bbox` (spec section 2, `matched_locations`). */
export interface MatchedLocation {
  name: string;
  country: string | null;
  latitude: number;
  longitude: number;
  /** From the `near` point, in km; only for `near`. */
  distance_km?: number;
}

/**
 * The mentioned cities inside the area, nearest first: nearest the `near`
 * point, or nearest the centre of the `bbox`; each city once.
 */
export function matchedLocations(details: readonly LocationDetail[], area: GeoArea): MatchedLocation[] {
  const centre = area.kind === "near" ? area : boxCentre(area);
  const seen = new Set<string>();
  const found: Array<MatchedLocation & { order: number }> = [];
  for (const l of details) {
    if (l.kind !== "city" || l.latitude === null || l.longitude === null || !inArea(area, l.latitude, l.longitude)) continue;
    if (seen.has(l.name)) continue;
    seen.add(l.name);
    const order = getDistance(centre, { latitude: l.latitude, longitude: l.longitude }, 0.1) / 1000;
    const location: MatchedLocation & { order: number } = {
      name: l.name,
      country: l.country,
      latitude: l.latitude,
      longitude: l.longitude,
      order,
    };
    if (area.kind === "near") location.distance_km = order;
    found.push(location);
  }
  return found.sort((a, b) => a.order - b.order).map(({ order: _order, ...location }) => location);
}

function boxCentre(box: LatLonBox): { latitude: number; longitude: number } {
  const east = box.west > box.east ? box.east + 360 : box.east;
  const longitude = (box.west + east) / 2;
  return { latitude: (box.south + box.north) / 2, longitude: longitude > 180 ? longitude - 360 : longitude };
}
