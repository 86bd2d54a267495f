import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DomainCountryTable, normalDomain } from "./domain-country-table.js";
import { DEFAULT_DATA_DIR } from "./publisher-country.js";

/** The table as a Map built row by row: the plain reading the one-pass parse must answer like. */
function rowByRow(text: string): Map<string, string> {
  const best = new Map<string, { code: string; count: number }>();
  const lines = text.split("\n");
  if (lines[0]?.startsWith("domain,")) lines.shift();
  for (const line of lines) {
    const [rawDomain, code, rawCount] = line.replace(/\r$/, "").split(",");
    const count = Number(rawCount);
    if (rawDomain === undefined || code === undefined || !/^[A-Z]{2}$/.test(code) || !Number.isFinite(count)) continue;
    const domain = normalDomain(rawDomain);
    const current = best.get(domain);
    if (domain !== "" && (current === undefined || count > current.count)) best.set(domain, { code, count });
  }
  return new Map([...best].map(([domain, { code }]) => [domain, code]));
}

function expectSameAnswers(text: string): DomainCountryTable {
  const table = DomainCountryTable.parse(text);
  const reference = rowByRow(text);
  const differing = [...reference].filter(([domain, code]) => table.get(domain) !== code);
  expect(differing).toEqual([]);
  expect(table.size).toBe(reference.size);
  return table;
}

describe("DomainCountryTable", () => {
  it("answers every domain of the real table as a Map built row by row does", () => {
    const path = fileURLToPath(new URL("lookup/domain-country.csv.gz", DEFAULT_DATA_DIR));
    const table = expectSameAnswers(gunzipSync(readFileSync(path)).toString("utf8"));
    expect(table.size).toBeGreaterThan(169_000);
    expect(table.get("no-such-outlet-xyz.com")).toBeUndefined();
  });

  it("folds `www.`, capitals and spaces into the domain, keeping the highest count of all its rows", () => {
    const table = expectSameAnswers(
      [
        "domain,countrycode,cnt",
        "a.com,US,5",
        "a.com,UK,9",
        "b.com,FR,3",
        "B.com,GM,4", // out of order and not in normal form: still b.com's best
        "c.com,IT,7",
        "www.a.com,CH,8", // below a.com's 9
        "www.c.com,SP,8", // above c.com's 7
        " d.com ,IN,1\r",
      ].join("\n"),
    );
    expect([table.get("a.com"), table.get("b.com"), table.get("c.com"), table.get("d.com")]).toEqual(["UK", "GM", "SP", "IN"]);
  });

  it("keeps the first row of equal counts, wherever the other is", () => {
    const table = expectSameAnswers(["x.org,AS,2", "x.org,NZ,2", "www.x.org,CA,2", "y.org,BR,1", "Y.org,AR,1"].join("\n"));
    expect([table.get("x.org"), table.get("y.org")]).toEqual(["AS", "BR"]);
  });

  it("skips rows without a FIPS code or a count, and a domain with no row left", () => {
    const table = expectSameAnswers(
      ["e.net,usa,9", "e.net,U1,9", "e.net,MX", "e.net,PE,x", "e.net,CO,4", "f.net,US", ",US,3", ""].join("\n"),
    );
    expect([table.get("e.net"), table.get("f.net"), table.size]).toEqual(["CO", undefined, 1]);
  });
});
