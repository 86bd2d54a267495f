import { describe, expect, it } from "vitest";
import {
  amountNumber,
  documentUrl,
  lowerCasedEntities,
  normaliseSource,
  offsetListNames,
  parseAmounts,
  parseAuthors,
  parseLanguage,
  parseQuotations,
  parseTone,
  sourceTypeOf,
} from "./gkg-fields.js";
import { parseUrlList } from "./gkg-text.js";
import { isGkgTimestamp } from "./gkg-timestamp.js";

// Field values below are copied from real rows of data/gkg/ unless marked synthetic.

describe("parseTone", () => {
  it("reads the seven V1.5Tone values (2023 row -708)", () => {
    expect(parseTone("-2.69749518304432,2.11946050096339,4.81695568400771,6.9364161849711,16.9556840077071,0,459")).toEqual({
      tone: -2.69749518304432,
      positive_score: 2.11946050096339,
      negative_score: 4.81695568400771,
      polarity: 6.9364161849711,
      activity_density: 16.9556840077071,
      self_reference_density: 0,
      word_count: 459,
    });
  });

  it("gives null for missing or unparseable values (synthetic)", () => {
    expect(parseTone("")).toEqual({
      tone: null,
      positive_score: null,
      negative_score: null,
      polarity: null,
      activity_density: null,
      self_reference_density: null,
      word_count: null,
    });
    const partial = parseTone("1.5,x,,3,4,5,12.5");
    expect(partial.tone).toBe(1.5);
    expect(partial.positive_score).toBeNull();
    expect(partial.negative_score).toBeNull();
    expect(partial.word_count).toBeNull();
  });
});

describe("entity lists", () => {
  it("takes V2 names before the last comma, lower-cased, distinct, first-seen order (2016 row -6)", () => {
    const v2 = "Paul Brandes,1871;Paul Brandes,2608;Christopher Edward Lapointe,577;Los Angeles,3033;Gloria Allred,3054";
    expect(lowerCasedEntities(v2, "ignored")).toEqual([
      "paul brandes",
      "christopher edward lapointe",
      "los angeles",
      "gloria allred",
    ]);
  });

  it("falls back to the V1 list when V2 is empty (2023 row -36: V1 only)", () => {
    expect(lowerCasedEntities("", "evxj nxj")).toEqual(["evxj nxj"]);
    expect(lowerCasedEntities("", "shiv sena-bharatiya janata party;shiv congress party")).toEqual([
      "shiv sena-bharatiya janata party",
      "shiv congress party",
    ]);
  });

  it("topics: V2 themes with offsets, V1 themes with a trailing `;` as fallback", () => {
    expect(lowerCasedEntities("MEDIA_SOCIAL,17;ARMEDCONFLICT,4127;SCIENCE,119;SCIENCE,315", "")).toEqual([
      "media_social",
      "armedconflict",
      "science",
    ]);
    expect(lowerCasedEntities("", "TERROR;REBELS;TAX_ETHNICITY;")).toEqual(["terror", "rebels", "tax_ethnicity"]);
  });

  it("keeps a comma inside a name (synthetic) and AllNames as written", () => {
    expect(offsetListNames("Acme, Inc.,120;Love Invention,117;Love Invention,327")).toEqual([
      "Acme, Inc.",
      "Love Invention",
      "Love Invention",
    ]);
  });
});

describe("parseAuthors", () => {
  it("does not split on the `;` that ends a character reference (2023 row -629)", () => {
    expect(parseAuthors("Cond&#xE9; Nast")).toEqual(["Condé Nast"]);
  });

  it("splits on `;` and decodes each author (translingual row -T14)", () => {
    expect(parseAuthors("Jean-Pierre Denis;directeur de la r&#xE9;daction")).toEqual([
      "Jean-Pierre Denis",
      "directeur de la rédaction",
    ]);
  });

  it("keeps a bare `&` and the ` | ` inside an author (2023 row -432)", () => {
    expect(parseAuthors("Jeff Mullin | Enid News & Eagle;Jeff Mullin | Columnist")).toEqual([
      "Jeff Mullin | Enid News & Eagle",
      "Jeff Mullin | Columnist",
    ]);
  });

  it("decodes named references and never splits on commas", () => {
    expect(parseAuthors("La R&eacute;daction")).toEqual(["La Rédaction"]);
    expect(parseAuthors("Smith, John")).toEqual(["Smith, John"]); // synthetic: no comma-separated authors in the data
    expect(parseAuthors(undefined)).toEqual([]);
    expect(parseAuthors("")).toEqual([]);
  });
});

describe("parseQuotations", () => {
  it("reads `offset|length|verb|quote` entries joined by `#`, keeping ` ; ` inside a quote (spark row -0)", () => {
    const field =
      "1332|134||prisoners are treated humanely ; they are allowed to catch up on sleep , they are provided with food and necessary medical treatment#2252|126||without our opposition , the junta would have left this place an uninhabited wasteland , and the world must understand that#2466|53||had retreated according to a plan in an organized way#3023|48||life is life and it will definitely move forward";
    const quotes = parseQuotations(field);
    expect(quotes).toHaveLength(4);
    expect(quotes[0]).toEqual({
      text: "prisoners are treated humanely ; they are allowed to catch up on sleep , they are provided with food and necessary medical treatment",
      verb: "",
    });
    expect(quotes[3]).toEqual({ text: "life is life and it will definitely move forward", verb: "" });
  });

  it("keeps `#` and `|` inside a quote, decodes entities, skips empty quotes (synthetic)", () => {
    expect(parseQuotations("10|20|said|we are #1 | forever#40|5|noted|&quot;fine&quot;#50|0|said|")).toEqual([
      { text: "we are #1 | forever", verb: "said" },
      { text: '"fine"', verb: "noted" },
    ]);
    expect(parseQuotations("")).toEqual([]);
  });
});

describe("parseAmounts", () => {
  it("reads `amount,object,offset` and trims the object (2023 row -708)", () => {
    expect(parseAmounts("94,on Metacritic,969;573000000,dollars ,2342;3,with $347 million,2368;")).toEqual([
      { number: 94, object: "on Metacritic", value: "94" },
      { number: 573000000, object: "dollars", value: "573000000" },
      { number: 3, object: "with $347 million", value: "3" },
    ]);
  });

  it("gives number null when the amount does not parse, and keeps commas in the object (synthetic)", () => {
    // Every amount in the five sample files parses; these cover the contract's null case.
    expect(parseAmounts("1.5m,dollars,12;twenty,people,40;0x10,units,50;3,channels, mocked,1883")).toEqual([
      { number: null, object: "dollars", value: "1.5m" },
      { number: null, object: "people", value: "twenty" },
      { number: null, object: "units", value: "0x10" },
      { number: 3, object: "channels, mocked", value: "3" },
    ]);
    expect(amountNumber("-2.5")).toBe(-2.5);
    expect(amountNumber("1e3")).toBe(1000);
    expect(amountNumber("Infinity")).toBeNull();
    expect(parseAmounts("")).toEqual([]);
  });
});

describe("parseUrlList", () => {
  it("does not split inside `&#038;` and decodes it (2023 social video embeds)", () => {
    expect(
      parseUrlList(
        "https://youtube.com/watch?v=GK6cU64hlFw&#038;t=2s;https://youtube.com/watch?v=nNHnDL-MaiU;https://youtube.com/watch?v=GK6cU64hlFw&#038;t=2s",
      ),
    ).toEqual(["https://youtube.com/watch?v=GK6cU64hlFw&t=2s", "https://youtube.com/watch?v=nNHnDL-MaiU"]);
  });

  it("splits 2015/2016 `http:/` lists and drops a trailing `;`", () => {
    expect(parseUrlList("http:/wtop.com/a.jpg;http:/wtop.com/b.jpg;")).toEqual(["http:/wtop.com/a.jpg", "http:/wtop.com/b.jpg"]);
    expect(parseUrlList("https://youtube.com/channel/UCA5S6hSzDfaQESCk5RjAIiw;")).toEqual([
      "https://youtube.com/channel/UCA5S6hSzDfaQESCk5RjAIiw",
    ]);
    expect(parseUrlList("")).toEqual([]);
  });
});

describe("source fields", () => {
  it("normalises SourceCommonName", () => {
    expect(normaliseSource("forbes.com")).toBe("forbes.com");
    expect(normaliseSource(" https://WWW.BBC.co.uk/ ")).toBe("bbc.co.uk");
    expect(normaliseSource("BBC Monitoring")).toBe("bbc monitoring");
    expect(normaliseSource("")).toBeNull();
  });

  it("maps SourceCollectionIdentifier to source_type", () => {
    expect(["1", "2", "3", "4", "5", "6", "7", ""].map(sourceTypeOf)).toEqual([
      "web",
      "citation",
      "academic_archive",
      "defense_archive",
      "journal_archive",
      "non_textual",
      "other",
      "other",
    ]);
  });

  it("keeps DocumentIdentifier as url only for web rows or real URLs", () => {
    expect(documentUrl("1", "https://www.lefigaro.fr/x")).toBe("https://www.lefigaro.fr/x");
    expect(documentUrl("2", "as listed in Russian /BBC Monitoring/(c) BBC")).toBeNull();
    expect(documentUrl("3", "http://core.ac.uk/x")).toBe("http://core.ac.uk/x");
    expect(documentUrl("1", "")).toBeNull();
  });

  it("reads the source language from srclc:, English without translation info", () => {
    expect(parseLanguage("", null)).toBe("eng");
    expect(parseLanguage("", "Biden to meet King and PM during July visit to UK")).toBe("eng");
    // Translation info decides whatever the title looks like.
    expect(parseLanguage("srclc:fra;eng:Moses 2.1.1 / MosesCore Europarl fr-en / GT-FRA 1.0", "Bryan Adams")).toBe("fra");
    expect(parseLanguage("srclc:ell;eng:GT-ELL 1.0", null)).toBe("ell");
    expect(parseLanguage("eng:GT-XXX 1.0", null)).toBeNull(); // synthetic: translated but no source language
  });
});

describe("isGkgTimestamp", () => {
  it("accepts real calendar times only", () => {
    expect(isGkgTimestamp("20230702153000")).toBe(true);
    expect(isGkgTimestamp("20240229000000")).toBe(true);
    expect(isGkgTimestamp("20230229000000")).toBe(false);
    expect(isGkgTimestamp("20231302000000")).toBe(false);
    expect(isGkgTimestamp("20230702246000")).toBe(false);
    expect(isGkgTimestamp("2023070215300")).toBe(false);
    expect(isGkgTimestamp("")).toBe(false);
  });
});
