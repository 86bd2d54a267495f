import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { DomainCountryTable, type DomainCountries } from "./domain-country-table.js";
import { compressionOf } from "./input-stream.js";

// publisher_country: GDELT's domain -> country table (the country a domain's articles
// were most often geolocated to, 2015-2021) first, then the source's country-code TLD.
// Both yield FIPS 10-4 codes (`UK`, `GM`), like every other country field in GKG.

export interface PublisherCountryResolver {
  /** FIPS 10-4 code for a normalised source (`bbc.co.uk`), or null. */
  countryOf(source: string | null): string | null;
}

// Resolved from this module: src/adapters/gdelt/ and dist/adapters/gdelt/ are both
// three levels below the project root.
export const DEFAULT_DATA_DIR: URL = new URL("../../../data/", import.meta.url);

const DOMAIN_TABLE = "lookup/domain-country.csv.gz";
const COUNTRY_INFO = "lookup/geonames-countryInfo.txt";

// ccTLDs sold as generic names (`.io`, `.tv`, `.co`...): they say nothing about the publisher.
const GENERIC_CCTLDS: ReadonlySet<string> = new Set(["ai", "cc", "co", "fm", "io", "me", "tv", "ws"]);

const FIPS_CODE = /^[A-Z]{2}$/;
const DOMAIN_LIKE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/** A table's text (gzip or plain), read whole: a line at a time through a stream cost seconds of CPU. */
async function textOf(path: string): Promise<string> {
  const bytes = await readFile(path);
  return (compressionOf(bytes) === "gzip" ? await promisify(gunzip)(bytes) : bytes).toString("utf8");
}

function resolveIn(dataDir: string | URL, relative: string): string {
  if (typeof dataDir === "string") return join(dataDir, relative);
  const base = dataDir.href.endsWith("/") ? dataDir : new URL(`${dataDir.href}/`);
  return fileURLToPath(new URL(relative, base));
}

/** GDELT's domain table: the highest-count country of each domain (domain-country-table.ts). */
async function loadDomainTable(path: string): Promise<DomainCountryTable> {
  return DomainCountryTable.parse(await textOf(path));
}

/** GeoNames countryInfo: ISO, ISO3, ISO-Numeric, fips, name, capital, area, population, continent, tld, ... */
async function loadTldTable(path: string): Promise<Map<string, string>> {
  const table = new Map<string, string>();
  for (const line of (await textOf(path)).split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const f = line.split("\t");
    const fips = f[3]?.trim() ?? "";
    const tld = (f[9]?.trim() ?? "").replace(/^\./, "").toLowerCase();
    // The TLD column is what maps `.uk` to GB (and so to FIPS `UK`); the ISO code is the fallback.
    const key = tld !== "" ? tld : (f[0]?.trim().toLowerCase() ?? "");
    if (FIPS_CODE.test(fips) && key !== "" && !table.has(key)) table.set(key, fips);
  }
  return table;
}

/** The tables read so far in this thread, by their files. */
const loaded = new Map<string, Promise<PublisherCountryLookup>>();

export class PublisherCountryLookup implements PublisherCountryResolver {
  constructor(
    private readonly byDomain: DomainCountries,
    private readonly byTld: ReadonlyMap<string, string>,
  ) {}

  /**
   * Both tables of `dataDir` (a path or file: URL; default: the project's `data/`), read once per thread: every
   * ingest service a process builds shares them (they never change while it runs).
   */
  static load(dataDir: string | URL = DEFAULT_DATA_DIR): Promise<PublisherCountryLookup> {
    const domains = resolveIn(dataDir, DOMAIN_TABLE);
    const countries = resolveIn(dataDir, COUNTRY_INFO);
    const key = `${domains}\n${countries}`;
    let lookup = loaded.get(key);
    if (lookup === undefined) {
      lookup = Promise.all([loadDomainTable(domains), loadTldTable(countries)]).then(
        ([byDomain, byTld]) => new PublisherCountryLookup(byDomain, byTld),
      );
      loaded.set(key, lookup);
      // A table that could not be read is tried again by the next caller.
      lookup.catch(() => loaded.delete(key));
    }
    return lookup;
  }

  get domainCount(): number {
    return this.byDomain.size;
  }

  countryOf(source: string | null): string | null {
    if (source === null || !DOMAIN_LIKE.test(source)) return null;
    // `en.people.cn` is not in the table but `people.cn` is: walk up to the registrable part.
    let labels = source.split(".");
    while (labels.length >= 2) {
      const hit = this.byDomain.get(labels.join("."));
      if (hit !== undefined) return hit;
      labels = labels.slice(1);
    }
    const tld = source.slice(source.lastIndexOf(".") + 1);
    if (GENERIC_CCTLDS.has(tld)) return null;
    return this.byTld.get(tld) ?? null;
  }
}
