import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { fileURLToPath } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import type { ArticleDetail } from "../../domain/article.js";
import type { SourceRecord } from "../../ports/article-source.js";
import { GkgArticleSource } from "./gkg-source.js";
import { PublisherCountryLookup } from "./publisher-country.js";

// Against the real sample files in data/gkg/. Every expected value below was read off the
// raw line by hand (`zcat FILE | sed -n Np | tr '\t' '\n'`), not copied from parser output.

const GKG_DIR = fileURLToPath(new URL("../../../data/gkg/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const F2023 = join(GKG_DIR, "20230702153000.gkg.csv.gz");
const F2016 = join(GKG_DIR, "20160101020000.gkg.csv.gz");
const SPARK = join(GKG_DIR, "spark-gdelt-test_gkg.csv.gz");
const SPARK_T = join(GKG_DIR, "spark-gdelt-test_gkgT.translation.csv.gz");
const BIGQUERY = join(GKG_DIR, "bq-extract-20200222_sample.csv.gz");

interface Read {
  ok: { line: number; article: ArticleDetail }[];
  bad: { line: number; reason: string }[];
}

let source: GkgArticleSource;
let tmp: string;
const cache = new Map<string, Read>();

async function readAll(path: string): Promise<Read> {
  const out: Read = { ok: [], bad: [] };
  for await (const record of source.read(path)) {
    if (record.ok) out.ok.push({ line: record.line, article: record.article });
    else out.bad.push({ line: record.line, reason: record.reason });
  }
  return out;
}

async function cached(path: string): Promise<Read> {
  let read = cache.get(path);
  if (read === undefined) {
    read = await readAll(path);
    cache.set(path, read);
  }
  return read;
}

async function atLine(path: string, line: number): Promise<ArticleDetail> {
  const hit = (await cached(path)).ok.find((r) => r.line === line);
  if (hit === undefined) throw new Error(`no article at ${path}:${line}`);
  return hit.article;
}

function rawLines(gzPath: string): string[] {
  return gunzipSync(readFileSync(gzPath))
    .toString("utf8")
    .split("\n")
    .filter((l) => l !== "");
}

beforeAll(async () => {
  source = new GkgArticleSource(await PublisherCountryLookup.load());
  tmp = mkdtempSync(join(tmpdir(), "gkg-source-test-"));
});

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe("GkgArticleSource on the sample files", () => {
  it.each([
    [F2023, 951],
    [SPARK, 100],
    [SPARK_T, 100],
    [F2016, 10],
    [BIGQUERY, 199],
  ])("reads every record of %s (%i)", async (path, count) => {
    const read = await cached(path);
    expect(read.bad).toEqual([]);
    expect(read.ok).toHaveLength(count);
    // Raw files have no header; the BigQuery header is line 1.
    const first = path === BIGQUERY ? 2 : 1;
    expect(read.ok.map((r) => r.line)).toEqual(Array.from({ length: count }, (_, i) => i + first));
    expect(new Set(read.ok.map((r) => r.article.id)).size).toBe(count);
  });

  it("maps a full 2023 record field by field (line 709, 20230702153000-708)", async () => {
    const a = await atLine(F2023, 709);
    expect(a).toMatchObject({
      id: "20230702153000-708",
      // <PAGE_TITLE> with &#x2014; (em dash) decoded
      title: "Best Movie Of 2023 (So Far): 'Past Lives' Top Critics' Favorite\u2014Though Scorsese And DiCaprio Are Coming",
      url: "https://www.forbes.com/sites/willskipworth/2023/07/02/best-movie-of-2023-so-far-past-lives-top-critics-favorite-though-scorsese-and-dicaprio-are-coming/",
      source: "forbes.com",
      source_type: "web",
      publisher_country: "US",
      language: "eng",
      published_at: "20230702150000", // <PAGE_PRECISEPUBTIMESTAMP>
      collected_at: "20230702153000",
      authors: ["William Skipworth"],
      organizations: ["box office mojo", "warner bros"],
      persons: ["martin scorsese", "greta lee", "margaret thatcher", "alice diop", "david rooney", "ann hornaday"],
      image: "https://imageio.forbes.com/specials-images/imageserve/649ed1e7ddb0eeb17fe45cbd/0x0.jpg?format=jpg",
      tone: -2.69749518304432,
      positive_score: 2.11946050096339,
      negative_score: 4.81695568400771,
      polarity: 6.9364161849711,
      activity_density: 16.9556840077071,
      self_reference_density: 0,
      word_count: 459,
      story_id: "20230702153000-708",
      amp_url:
        "https://www.forbes.com/sites/willskipworth/2023/07/02/best-movie-of-2023-so-far-past-lives-top-critics-favorite-though-scorsese-and-dicaprio-are-coming/amp/",
      mobile_url: null,
      links: [
        "https://www.forbes.com/sites/tylerroush/2023/06/20/warner-bros-shares-down-after-the-flash-underperforms/?sh=3c519b613bf2",
        "https://www.hollywoodreporter.com/movies/movie-reviews/past-lives-review-greta-lee-celine-song-1235310132/",
        "https://www.metacritic.com/about-metascores",
        "https://www.rottentomatoes.com/about",
        "https://www.washingtonpost.com/movies/2023/06/08/past-lives-movie-review/",
      ],
      related_images: [],
      social_images: [],
      social_videos: [],
      quotes: [{ text: "a quietly spectacular writing-directing debut", verb: "" }],
      // V2.1EnhancedDates 4#6#2#0;4#10#6#0;4#1#13#0;4#4#14#0;4#6#9#0;1#0#0#1988;4#6#23#0
      mentioned_dates: ["--06-02", "--10-06", "--01-13", "--04-14", "--06-09", "1988", "--06-23"],
    });
    expect(a.date_mentions[0]).toEqual({ date: "--06-02", precision: "month_day" });
    expect(a.date_mentions[5]).toEqual({ date: "1988", precision: "year" });

    // V2EnhancedLocations, in field order, each location once.
    expect(a.countries).toEqual(["US", "KS", "FR", "SG", "UK"]);
    expect(a.cities).toEqual([
      "Hollywood, California, United States",
      "Washington, Washington, United States",
      "Saint Omer, Picardie, France",
    ]);
    expect(a.regions).toEqual(["Oklahoma, United States"]);
    expect(a.locations).toHaveLength(9);
    expect(a.location_details[0]).toEqual({
      country: "US",
      kind: "city",
      latitude: 34.0983,
      location_id: "1660757",
      longitude: -118.327,
      name: "Hollywood, California, United States",
      region_id: "USCA",
      subregion_id: "CA037",
    });
    expect(a.location_details[2]).toEqual({
      country: "US",
      kind: "region",
      latitude: 35.5376,
      location_id: "OK",
      longitude: -96.9247,
      name: "Oklahoma, United States",
      region_id: "USOK",
      subregion_id: null,
    });
    expect(a.location_details[5]).toMatchObject({
      kind: "city",
      name: "Saint Omer, Picardie, France",
      location_id: "-1467623",
      subregion_id: "16314",
    });

    // 24 distinct V2 themes, lower-cased, first-seen order.
    expect(a.topics).toHaveLength(24);
    expect(a.topics.slice(0, 3)).toEqual(["tax_ethnicity_french", "tax_worldlanguages_french", "tax_fncact_children"]);

    // V2.1AllNames as written, distinct ("Rotten Tomatoes" appears 4 times).
    expect(a.names.filter((n) => n === "Rotten Tomatoes")).toHaveLength(1);
    expect(a.names).toContain("Flash' Underperforms");

    // V2.1Amounts: 15 entries; `573000000,dollars ,2342` has a trailing space in the object.
    expect(a.amounts).toHaveLength(15);
    expect(a.amounts[3]).toEqual({ number: 94, object: "on Metacritic", value: "94" });
    expect(a.amounts[9]).toEqual({ number: 573000000, object: "dollars", value: "573000000" });
    expect(a.amounts[10]).toEqual({ number: 3, object: "with $347 million", value: "3" });
  });

  it("decodes a hex reference in a title and reads quotes/amounts (line 137, -136)", async () => {
    const a = await atLine(F2023, 137);
    expect(a.title).toBe("Alison Goldfrapp On Going Solo For 'The Love Invention' and Collaborating With Röyksopp");
    expect(a.authors).toEqual(["David Chiu"]);
    expect(a.published_at).toBe("20230702143000");
    expect(a.quotes).toEqual([{ text: "Yes , Sir , I Can Boogie", verb: "" }]);
    expect(a.amounts).toEqual([{ number: 7, object: "studio albums", value: "7" }]);
    expect(a.date_mentions).toEqual([
      { date: "1983", precision: "year" },
      { date: "2003", precision: "year" },
    ]);
    // Brazilian appears at two offsets: one detail.
    expect(a.location_details.filter((d) => d.name === "Brazilian")).toHaveLength(1);
  });

  it("keeps an author whose entity ends in `;` whole (line 630, Cond&#xE9; Nast)", async () => {
    expect((await atLine(F2023, 630)).authors).toEqual(["Condé Nast"]);
  });

  it("reads PAGE_ALTURL_MOBILE and falls back to V2.1DATE without a precise timestamp (line 85)", async () => {
    const a = await atLine(F2023, 85);
    expect(a.mobile_url).toBe("https://m.slashdot.org/story/416240");
    expect(a.amp_url).toBeNull();
    expect(a.published_at).toBe("20230702153000");
    expect(a.title).toBe("Linux Foundation's Yocto Project Expands LTS to 4 Years");
  });

  it("falls back to V1Locations when V2EnhancedLocations is empty (line 414, wflx.com)", async () => {
    const a = await atLine(F2023, 414);
    expect(a.location_details).toEqual([
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
    ]);
    expect(a.countries).toEqual(["SP"]);
  });

  it("maps a translingual record (spark gkgT line 65, 20200318103000-T14)", async () => {
    const a = await atLine(SPARK_T, 65);
    expect(a).toMatchObject({
      id: "20200318103000-T14",
      title: "Pendant l'épidémie, La Vie continue",
      source: "lavie.fr",
      publisher_country: "FR",
      language: "fra", // srclc:fra;eng:Moses 2.1.1 / MosesCore Europarl fr-en / GT-FRA 1.0
      authors: ["Jean-Pierre Denis", "directeur de la rédaction"],
      published_at: "20200318103000",
      locations: [],
      amounts: [{ number: 2, object: "weeks ago", value: "2" }],
      social_videos: ["https://youtube.com/channel/UCA5S6hSzDfaQESCk5RjAIiw"],
      word_count: 157,
    });
    const languages = new Set((await cached(SPARK_T)).ok.map((r) => r.article.language));
    expect([...languages].sort()).toEqual(["ces", "fra", "slv", "vie"]);
  });

  it("maps a citation-only record (spark gkg line 1, collection 2)", async () => {
    const a = await atLine(SPARK, 1);
    expect(a).toMatchObject({
      id: "20150218230000-0",
      title: null,
      url: null, // DocumentIdentifier "as listed in Russian /BBC Monitoring/(c) BBC"
      source: "bbc monitoring",
      source_type: "citation",
      publisher_country: null,
      language: "eng",
      published_at: "20150218230000",
      collected_at: "20150218230000",
      organizations: ["gazprom"],
      tone: -5.3475935828877,
      word_count: 693,
      mentioned_dates: [],
      image: null,
    });
    expect(a.quotes).toHaveLength(4);
    expect(a.quotes[0]?.text.startsWith("prisoners are treated humanely ; they")).toBe(true);
    expect(a.amounts[4]).toEqual({ number: 3, object: "channels mocked Ukrainian President", value: "3" });
    const citations = (await cached(SPARK)).ok.filter((r) => r.article.source_type === "citation");
    expect(citations.map((r) => r.line)).toEqual([1, 2]);
  });

  it("maps a 2016 record: resolutions 3 and 2, `http:/` image lists, no extras (line 7)", async () => {
    const a = await atLine(F2016, 7);
    expect(a).toMatchObject({
      id: "20160101020000-6",
      title: null,
      source: "azcentral.com",
      publisher_country: "US",
      authors: [],
      links: [],
      mentioned_dates: ["2014-04-11", "2014-12", "2014-04-09"],
      amounts: [{ number: 3, object: "beers", value: "3" }],
      // `&;` is GDELT's own mangling, not a reference: kept as written.
      image:
        "http://www.gannett-cdn.com/-mm-/36d4065271710c4b139483c05b53feeba4a76c4b/c=0-138-2996-1831&;r=x633&;c=1200x630/local/-/media/2015/12/31/USATODAY/USATODAY/635871789252513950-123115Christopher-LaPointe.jpg",
    });
    expect(a.date_mentions.map((d) => d.precision)).toEqual(["day", "month", "day"]);
    expect(a.related_images).toHaveLength(4);
    expect(a.related_images.every((u) => u.startsWith("http:/www.gannett-cdn.com/"))).toBe(true);
    expect(a.cities).toEqual(["Des Moines, Iowa, United States"]);
  });
});

describe("BigQuery CSV export", () => {
  it("maps a record field by field (line 2, 20200222011500-T950)", async () => {
    const a = await atLine(BIGQUERY, 2);
    expect(a).toMatchObject({
      id: "20200222011500-T950",
      title: "Περισσότερο «φως» στο γενετικό υπόβαθρο του καρκίνου της μήτρας",
      url: "http://newpost.gr/ygeia/5e4fab66adcc7f2c5a822169/perissotero-fos-sto-genetiko-ypovathro-toy-karkinoy-tis-mitras",
      source: "newpost.gr",
      publisher_country: "GR", // not in the domain table: from the .gr TLD
      language: "ell",
      collected_at: "20200222011500",
      published_at: "20200222011500",
      countries: ["UK"],
      cities: ["Manchester, Manchester, United Kingdom", "Cambridge, Cambridgeshire, United Kingdom"],
      names: ["United Kingdom"],
      image: "http://newpost.gr/photo/large/202002/5n63fb1582279515669.jpg",
      word_count: 373,
    });
    expect(a.amounts).toHaveLength(5);
    expect(a.amounts[0]).toEqual({ number: 2, object: "maximum thrice risk for", value: "2" });
    expect(a.location_details).toHaveLength(3);
  });

  it("gives the same articles as the same rows in raw TSV (converted here by csv-parse)", async () => {
    const rows: string[][] = parseCsv(gunzipSync(readFileSync(BIGQUERY)));
    expect(rows[0]?.[0]).toBe("GKGRECORDID");
    const tsv = join(tmp, "bq-as-raw.gkg.csv");
    writeFileSync(
      tsv,
      rows
        .slice(1)
        .map((r) => r.join("\t"))
        .join("\n") + "\n",
    );
    const fromTsv = await readAll(tsv);
    const fromCsv = await cached(BIGQUERY);
    expect(fromTsv.bad).toEqual([]);
    expect(fromTsv.ok).toHaveLength(199);
    expect(fromCsv.ok.map((r) => ({ line: r.line - 1, article: r.article }))).toEqual(fromTsv.ok);
  });

  it("reads an uncompressed export, and isolates malformed rows", async () => {
    const lines = rawLines(BIGQUERY);
    const plain = join(tmp, "bq.csv");
    writeFileSync(plain, lines.join("\n") + "\n");
    expect((await readAll(plain)).ok).toHaveLength(199);

    const broken = join(tmp, "bq-broken.csv.gz");
    const body = [
      lines[0],
      lines[1],
      '20200222011500-X1,20200222011500,1,"never closed', // unclosed quote
      lines[2],
      "20200222011500-X2,too,few", // 3 of 27 fields
      lines[3],
      "",
    ];
    writeFileSync(broken, gzipSync(body.join("\n")));
    const read = await readAll(broken);
    expect(read.ok.map((r) => r.line)).toEqual([2, 4, 6]);
    expect(read.bad).toEqual([
      { line: 3, reason: "malformed CSV: unterminated quoted field" },
      { line: 5, reason: "expected 27 comma-separated fields, got 3" },
    ]);
  });
});

describe("packaging", () => {
  it("reads GDELT's .csv.zip packaging (committed fixture of the 2016 file)", async () => {
    const fromZip = await readAll(join(FIXTURES, "20160101020000.gkg.csv.zip"));
    expect(fromZip.bad).toEqual([]);
    expect(fromZip.ok).toEqual((await cached(F2016)).ok);
  });

  it("reads a .csv.zip built from the 2023 file, skipping a __MACOSX entry", async () => {
    const path = join(mkdtempSync(join(tmp, "zip-")), "20230702153000.gkg.csv.zip");
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from("resource fork"), "__MACOSX/._20230702153000.gkg.csv");
    zip.addBuffer(gunzipSync(readFileSync(F2023)), "20230702153000.gkg.csv");
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
    const read = await readAll(path);
    expect(read.bad).toEqual([]);
    expect(read.ok).toEqual((await cached(F2023)).ok);
  });

  it("reads a plain .csv, and a CRLF copy, to the same articles", async () => {
    const plain = join(tmp, "20230702153000.gkg.csv");
    writeFileSync(plain, gunzipSync(readFileSync(F2023)));
    expect((await readAll(plain)).ok).toEqual((await cached(F2023)).ok);

    const crlf = join(tmp, "20160101020000-crlf.gkg.csv");
    writeFileSync(crlf, rawLines(F2016).join("\r\n") + "\r\n");
    expect((await readAll(crlf)).ok).toEqual((await cached(F2016)).ok);
  });

  it("reports malformed lines with their line number and parses the rest", async () => {
    const real = rawLines(F2016);
    const fields = real[0]?.split("\t") ?? [];
    const badId = ["garbage-1", ...fields.slice(1)].join("\t");
    const badDate = [fields[0], "2016010102", ...fields.slice(2)].join("\t");
    const body = [
      ...real.slice(0, 3), // lines 1-3
      "20160101020000-99\tonly\tfive\tfields\there", // line 4
      ...real.slice(3, 6), // lines 5-7
      badId, // line 8
      real[6], // line 9
      badDate, // line 10
      ...real.slice(7), // lines 11-13
      "",
      "", // empty trailing lines: ignored
    ];
    const path = join(tmp, "injected.gkg.csv");
    writeFileSync(path, body.join("\n"));
    const read = await readAll(path);
    expect(read.ok).toHaveLength(10);
    expect(read.ok.map((r) => r.line)).toEqual([1, 2, 3, 5, 6, 7, 9, 11, 12, 13]);
    expect(read.ok.map((r) => r.article)).toEqual((await cached(F2016)).ok.map((r) => r.article));
    expect(read.bad).toEqual([
      { line: 4, reason: "expected 27 tab-separated fields, got 5" },
      { line: 8, reason: 'GKGRECORDID "garbage-1" does not start with a 14-digit timestamp' },
      { line: 10, reason: 'V2.1DATE "2016010102" is not a 14-digit timestamp' },
    ]);
  });

  it("throws on a file it cannot read: missing, or gzip cut short (after yielding what it could)", async () => {
    await expect(readAll(join(tmp, "missing.csv.gz"))).rejects.toThrow(/ENOENT/);
    const bytes = readFileSync(F2023);
    const cut = join(tmp, "truncated.gkg.csv.gz");
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const seen: SourceRecord[] = [];
    await expect(
      (async () => {
        for await (const record of source.read(cut)) seen.push(record);
      })(),
    ).rejects.toThrow(/unexpected end of file/);
    expect(seen.length).toBeGreaterThan(100);
  });

  it("lets a consumer stop early", async () => {
    let n = 0;
    for await (const record of source.read(F2023)) {
      expect(record.ok).toBe(true);
      if (++n === 3) break;
    }
    expect(n).toBe(3);
  });
});
