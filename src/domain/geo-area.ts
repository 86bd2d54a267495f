import { getBoundsOfDistance, getDistance } from "geolib";
import type { LocationDetail } from "./article.js";

// The areas of the geographic filters (spec section 4: `near` + `radius_km`,
// `bbox`), matched against the coordinates of the cities an article mentions
// (rule 5). Geodesy is geolib's (great-circle distance on its Earth radius,
// the bounding box of a circle); geohash cells are counted as ngeohash lays
// them out.

/** A latitude/longitude box; `west` greater than `east` crosses the antimeridian. */
export interface LatLonBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

export type GeoArea = { kind: "near"; latitude: number; longitude: number; radius_km: number } | ({ kind: "bbox" } & LatLonBox);

/** An area is covered by at most this many geohash cells (spec section 8). */
export const MAX_GEOHASH_CELLS = 256;
/** The finest precision tried: cells of about 4.8 by 4.8 m. */
const FINEST_PRECISION = 9;

/** The geohash cells covering an area, at the precision picked for it. */
export interface GeohashCover {
  precision: number;
  cells: number;
}

/**
 * The cover of an area's bounding box at the finest geohash precision whose
 * cells number at most MAX_GEOHASH_CELLS: the precision follows the area's
 * size, so a city block and a continent both fit (precision 1's 32 cells
 * cover the globe). Counted, not listed: a wide box never builds its cells.
 */
export function geohashCover(area: GeoArea): GeohashCover {
  const box = boundingBox(area);
  let cover: GeohashCover = { precision: 1, cells: cellCount(box, 1) };
  for (let precision = 2; precision <= FINEST_PRECISION; precision++) {
    const cells = cellCount(box, precision);
    if (cells > MAX_GEOHASH_CELLS) break;
    cover = { precision, cells };
  }
  return cover;
}

/** Cells of one precision covering a box, as ngeohash.bboxes lists them; a box crossing the antimeridian is counted in two parts. */
export function cellCount(box: LatLonBox, precision: number): number {
  const lonCells = 2 ** Math.ceil((5 * precision) / 2);
  const latCells = 2 ** Math.floor((5 * precision) / 2);
  const rows = cellIndex(box.north, -90, 180, latCells) - cellIndex(box.south, -90, 180, latCells) + 1;
  const columns =
    box.west <= box.east
      ? cellIndex(box.east, -180, 360, lonCells) - cellIndex(box.west, -180, 360, lonCells) + 1
      : Math.min(lonCells, lonCells - cellIndex(box.west, -180, 360, lonCells) + cellIndex(box.east, -180, 360, lonCells) + 1);
  return rows * columns;
}

/** The cell holding a coordinate; one on a cell edge belongs to the lower cell, as in ngeohash's encoding. */
function cellIndex(value: number, min: number, span: number, cells: number): number {
  return Math.min(cells - 1, Math.max(0, Math.ceil(((value - min) / span) * cells) - 1));
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
