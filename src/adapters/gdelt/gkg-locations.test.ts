import { describe, expect, it } from "vitest";
import { parseLocations } from "./gkg-locations.js";

describe("parseLocations", () => {
  it("maps types to kinds, keeps coordinates and codes, and drops repeats at other offsets (2016 row -6)", () => {
    const v2 =
      "2#Iowa, United States#US#USIA##42.0046#-93.214#IA#764;2#Iowa, United States#US#USIA##42.0046#-93.214#IA#2072;" +
      "3#Des Moines, Iowa, United States#US#USIA#IA153#41.6005#-93.6091#465961#11;3#Des Moines, Iowa, United States#US#USIA#IA153#41.6005#-93.6091#465961#965";
    const parsed = parseLocations(v2, "ignored when V2 has entries");
    expect(parsed.location_details).toEqual([
      {
        country: "US",
        kind: "region",
        latitude: 42.0046,
        location_id: "IA",
        longitude: -93.214,
        name: "Iowa, United States",
        region_id: "USIA",
        subregion_id: null,
      },
      {
        country: "US",
        kind: "city",
        latitude: 41.6005,
        location_id: "465961",
        longitude: -93.6091,
        name: "Des Moines, Iowa, United States",
        region_id: "USIA",
        subregion_id: "IA153",
      },
    ]);
    expect(parsed.locations).toEqual(["Iowa, United States", "Des Moines, Iowa, United States"]);
    expect(parsed.cities).toEqual(["Des Moines, Iowa, United States"]);
    expect(parsed.regions).toEqual(["Iowa, United States"]);
    expect(parsed.countries).toEqual(["US"]);
  });

  it("treats type 4 as a city, type 1 as a country with no region id (2023 row -136)", () => {
    const parsed = parseLocations(
      "1#British#UK#UK##54#-4#UK#240;4#Glastonbury, Somerset, United Kingdom#UK#UKM3#40129#51.1467#-2.71444#-2597059#6829",
      "",
    );
    expect(parsed.location_details.map((d) => [d.kind, d.name, d.region_id, d.location_id])).toEqual([
      ["country", "British", null, "UK"],
      ["city", "Glastonbury, Somerset, United Kingdom", "UKM3", "-2597059"],
    ]);
  });

  it("falls back to V1Locations when V2 is empty (2023 row -413)", () => {
    expect(parseLocations("", "1#Spain#SP#SP#40#-4#SP")).toEqual({
      locations: ["Spain"],
      countries: ["SP"],
      cities: [],
      regions: [],
      location_details: [
        {
          country: "SP",
          kind: "country",
          latitude: 40,
          location_id: "SP",
          longitude: -4,
          name: "Spain",
          region_id: null,
          subregion_id: null,
        },
      ],
    });
  });

  it("drops a malformed entry but keeps the rest (2023 row -844 has a 10-field type-0 entry)", () => {
    const parsed = parseLocations("1#Georgian#GG#GG##42#43.5#GG#12;0#Georgia, , Georgia#GG#GG##42#.5#1#GG#402", "");
    expect(parsed.locations).toEqual(["Georgian"]);
  });

  it("gives null coordinates when they are missing or out of range (synthetic)", () => {
    const [detail] = parseLocations("4#Nowhere#XX#XX00###999#1#5", "").location_details;
    expect(detail).toMatchObject({ latitude: null, longitude: null, subregion_id: null, location_id: "1" });
  });
});
