import type { LocationDetail, LocationKind } from "../../domain/article.js";
import { distinct } from "./gkg-text.js";

// V2EnhancedLocations `type#name#country#adm1#adm2#lat#lon#featureid#offset` (`;`-separated),
// or V1Locations `type#name#country#adm1#lat#lon#featureid` when the V2 column is empty.
// GDELT location types: 1 country, 2 US state, 3 US city, 4 world city, 5 world ADM1.

export interface ParsedLocations {
  locations: string[];
  countries: string[];
  cities: string[];
  regions: string[];
  location_details: LocationDetail[];
}

const KIND_BY_TYPE: ReadonlyMap<string, LocationKind> = new Map<string, LocationKind>([
  ["1", "country"],
  ["2", "region"],
  ["3", "city"],
  ["4", "city"],
  ["5", "region"],
]);

/** Where each part sits in an entry of the two column versions (V1 has no ADM2 and no offset). */
interface EntryLayout {
  fields: number;
  adm2: number | null;
  lat: number;
  lon: number;
  featureId: number;
  /** Parts that identify the location: all but V2's trailing char offset. */
  keyParts: number;
}

const V2_LAYOUT: EntryLayout = { fields: 9, adm2: 4, lat: 5, lon: 6, featureId: 7, keyParts: 8 };
const V1_LAYOUT: EntryLayout = { fields: 7, adm2: null, lat: 4, lon: 5, featureId: 6, keyParts: 7 };

function coordinate(value: string | undefined, limit: number): number | null {
  if (value === undefined || value.trim() === "") return null;
  const n = Number(value);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : null;
}

function orNull(value: string | undefined): string | null {
  return value === undefined || value === "" ? null : value;
}

// A country entry's ADM1 field just repeats the country code: not a region.
function regionId(kind: LocationKind, adm1: string | undefined): string | null {
  return kind === "country" ? null : orNull(adm1);
}

interface KeyedLocation {
  /** The entry without its char offset: GDELT repeats a location once per mention. */
  key: string;
  detail: LocationDetail;
}

function parseEntry(entry: string, layout: EntryLayout): KeyedLocation | null {
  const f = entry.split("#");
  if (f.length !== layout.fields) return null;
  const kind = KIND_BY_TYPE.get(f[0] ?? "");
  const name = f[1]?.trim() ?? "";
  if (kind === undefined || name === "") return null;
  return {
    key: f.slice(0, layout.keyParts).join("#"),
    detail: {
      country: orNull(f[2]),
      kind,
      latitude: coordinate(f[layout.lat], 90),
      location_id: orNull(f[layout.featureId]),
      longitude: coordinate(f[layout.lon], 180),
      name,
      region_id: regionId(kind, f[3]),
      subregion_id: layout.adm2 === null ? null : orNull(f[layout.adm2]),
    },
  };
}

function parseEntries(field: string, layout: EntryLayout): LocationDetail[] {
  const byKey = new Map<string, LocationDetail>();
  for (const entry of field.split(";")) {
    if (entry === "") continue;
    // Malformed entries (wrong field count, unknown type 0) are dropped, not the record.
    const parsed = parseEntry(entry, layout);
    if (parsed !== null && !byKey.has(parsed.key)) byKey.set(parsed.key, parsed.detail);
  }
  return [...byKey.values()];
}

export function parseLocations(v2Field: string, v1Field: string): ParsedLocations {
  let details = parseEntries(v2Field, V2_LAYOUT);
  if (details.length === 0) details = parseEntries(v1Field, V1_LAYOUT);
  return {
    locations: distinct(details.map((d) => d.name)),
    countries: distinct(details.flatMap((d) => (d.country === null ? [] : [d.country]))),
    cities: distinct(details.filter((d) => d.kind === "city").map((d) => d.name)),
    regions: distinct(details.filter((d) => d.kind === "region").map((d) => d.name)),
    location_details: details,
  };
}
