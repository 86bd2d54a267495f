import { geohashCover, MAX_GEOHASH_CELLS, type GeoArea } from "../../domain/geo-area.js";
import type { CandidateCheck } from "../../domain/search-query.js";
import type { LIST_FILTERS, ParamsOf, SHARED_FILTERS } from "../../schemas/params.js";
import { invalidParameter } from "../../shared/api-error.js";

// The geographic and amount filters of spec section 4 (`near` + `radius_km`,
// `bbox`, `amount_min`/`amount_max`) with their cross-field rules, as the
// check their candidates go through (domain/search-query.ts CandidateCheck).

/** The geographic and amount parameters as validated against their declarations (schemas/params.ts). */
export type CandidateParams = Pick<
  ParamsOf<typeof SHARED_FILTERS & typeof LIST_FILTERS>,
  "near" | "radius_km" | "bbox" | "amount_min" | "amount_max" | "amount_object"
>;

/** The names of the parameters that make a check: they cannot page by `cursor` (spec, Pagination rule 3). */
export const CANDIDATE_PARAMS = ["near", "bbox", "amount_min", "amount_max"] as const;

export function candidateCheckOf(params: CandidateParams): CandidateCheck | undefined {
  const check: CandidateCheck = {};
  const area = areaOf(params);
  if (area) check.area = area;
  const { amount_min: min, amount_max: max } = params;
  if (min !== undefined && max !== undefined && min > max) {
    throw invalidParameter("amount_min", `'amount_min' (${min}) is above 'amount_max' (${max}).`);
  }
  if (min !== undefined || max !== undefined) {
    check.amount = {
      ...(min === undefined ? {} : { min }),
      ...(max === undefined ? {} : { max }),
      ...(params.amount_object === undefined ? {} : { object: params.amount_object.trim() }),
    };
  }
  return check.area || check.amount ? check : undefined;
}

function areaOf(params: CandidateParams): GeoArea | undefined {
  const area = givenArea(params);
  if (area === undefined) return undefined;
  // The cell precision follows the area's size, so only a cover of more than
  // MAX_GEOHASH_CELLS at the coarsest precision (none on this globe) is refused.
  const cover = geohashCover(area);
  if (cover.cells > MAX_GEOHASH_CELLS) {
    throw invalidParameter(
      area.kind,
      `'${area.kind}' covers ${cover.cells} geohash cells of precision ${cover.precision}; at most ${MAX_GEOHASH_CELLS} are searched.`,
    );
  }
  return area;
}

function givenArea(params: CandidateParams): GeoArea | undefined {
  if (params.near !== undefined && params.bbox !== undefined) {
    throw invalidParameter("bbox", "'bbox' and 'near' cannot be combined: give one area.");
  }
  if (params.near !== undefined) {
    if (params.radius_km === undefined) throw invalidParameter("near", "'near' needs 'radius_km' (0.1 to 2000 km).");
    const [latitude, longitude] = numbers(params.near) as [number, number];
    checkLatitude("near", latitude);
    checkLongitude("near", longitude);
    return { kind: "near", latitude, longitude, radius_km: params.radius_km };
  }
  if (params.radius_km !== undefined)
    throw invalidParameter("radius_km", "'radius_km' is the radius around 'near': give 'near' too.");
  if (params.bbox === undefined) return undefined;
  const [south, west, north, east] = numbers(params.bbox) as [number, number, number, number];
  checkLatitude("bbox", south);
  checkLatitude("bbox", north);
  checkLongitude("bbox", west);
  checkLongitude("bbox", east);
  if (south > north)
    throw invalidParameter(
      "bbox",
      `'bbox' south (${south}) is north of its north (${north}); the order is south,west,north,east.`,
    );
  return { kind: "bbox", south, west, north, east };
}

function numbers(text: string): number[] {
  return text.split(",").map((part) => Number(part.trim()));
}

function checkLatitude(parameter: string, value: number): void {
  if (!(value >= -90 && value <= 90))
    throw invalidParameter(parameter, `'${parameter}' has a latitude ${value} outside -90 to 90.`);
}

function checkLongitude(parameter: string, value: number): void {
  if (!(value >= -180 && value <= 180))
    throw invalidParameter(parameter, `'${parameter}' has a longitude ${value} outside -180 to 180.`);
}
