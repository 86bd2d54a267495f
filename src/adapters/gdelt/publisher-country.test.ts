import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DATA_DIR, PublisherCountryLookup } from "./publisher-country.js";

describe("PublisherCountryLookup (real data/lookup tables)", () => {
  let lookup: PublisherCountryLookup;
  beforeAll(async () => {
    lookup = await PublisherCountryLookup.load();
  });

  it("resolves the default data dir to the project's data/", () => {
    const dir = fileURLToPath(DEFAULT_DATA_DIR);
    expect(dir.endsWith("/data/")).toBe(true);
    expect(existsSync(`${dir}lookup/domain-country.csv.gz`)).toBe(true);
  });

  it("loads one country per domain (169,926 domains; `www.` rows folded into their domain)", () => {
    expect(lookup.domainCount).toBeGreaterThan(169_000);
    expect(lookup.domainCount).toBeLessThanOrEqual(169_926);
  });

  it("takes the domain table's highest-count country", () => {
    // forbes.com: US 1829787 > CH 399369 ...; bbc.co.uk: UK 1761276 > US ...; lefigaro.fr: FR 841826.
    expect(lookup.countryOf("forbes.com")).toBe("US");
    expect(lookup.countryOf("bbc.co.uk")).toBe("UK");
    expect(lookup.countryOf("lefigaro.fr")).toBe("FR");
    expect(lookup.countryOf("spiegel.de")).toBe("GM");
  });

  it("walks a subdomain up to a listed domain (en.people.cn -> people.cn, CH)", () => {
    expect(lookup.countryOf("en.people.cn")).toBe("CH");
  });

  it("falls back to the ccTLD, mapped ISO -> FIPS (newpost.gr is not in the table)", () => {
    expect(lookup.countryOf("newpost.gr")).toBe("GR");
    expect(lookup.countryOf("no-such-outlet-xyz.de")).toBe("GM");
    expect(lookup.countryOf("no-such-outlet-xyz.co.uk")).toBe("UK");
    expect(lookup.countryOf("no-such-outlet-xyz.kr")).toBe("KS");
  });

  it("gives null for generic TLDs, generic-use ccTLDs and non-domains", () => {
    expect(lookup.countryOf("no-such-outlet-xyz.com")).toBeNull();
    expect(lookup.countryOf("no-such-outlet-xyz.io")).toBeNull();
    expect(lookup.countryOf("bbc monitoring")).toBeNull();
    expect(lookup.countryOf(null)).toBeNull();
  });

  it("can be built from in-memory tables", () => {
    const small = new PublisherCountryLookup(new Map([["example.org", "AS"]]), new Map([["fr", "FR"]]));
    expect(small.countryOf("news.example.org")).toBe("AS");
    expect(small.countryOf("x.fr")).toBe("FR");
  });
});
