import { describe, expect, it } from "vitest";
import { acronymsOf, aliasMatch, entityKey, parseEntityId, wordStarts } from "./entity-key.js";

describe("er-v1 entity keys", () => {
  it("folds accents and letters of Latin scripts to ASCII, keeps other scripts", () => {
    expect(entityKey("person", "Emmanuel Macrón")).toBe("emmanuel macron");
    expect(entityKey("person", "Angela Merkel")).toBe(entityKey("person", "ANGELA MERKEL"));
    expect(entityKey("city", "Kraków, Małopolskie, Poland")).toBe("krakow malopolskie poland");
    expect(entityKey("organization", "Straße Bau AG")).toBe("strasse bau");
    expect(entityKey("name", "Владимир Путин")).toBe("владимир путин");
  });

  it("removes apostrophes and periods inside words, turns other punctuation into one space", () => {
    expect(entityKey("person", "Dilip Walse-Patil")).toBe("dilip walse patil");
    expect(entityKey("person", "Conan O'Brien")).toBe("conan obrien");
    expect(entityKey("name", "staten island'")).toBe("staten island");
    expect(entityKey("location", "-Indianapolis, Indiana, United States")).toBe("indianapolis indiana united states");
    expect(entityKey("name", "  New   York \t City ")).toBe("new york city");
  });

  it("keeps acronyms one word whether dotted or not", () => {
    expect(entityKey("organization", "N.A.T.O.")).toBe("nato");
    expect(entityKey("organization", "NATO")).toBe("nato");
    expect(entityKey("location", "U.S.")).toBe("us");
  });

  it("drops a leading 'the', never the whole name", () => {
    expect(entityKey("author", "The Associated Press")).toBe("associated press");
    expect(entityKey("organization", "the Washington Post")).toBe("washington post");
    expect(entityKey("name", "The")).toBe("the");
    expect(entityKey("name", "Bring Me The Horizon")).toBe("bring me the horizon");
  });

  it("strips trailing corporate suffixes from organizations only, repeatedly, never the last word", () => {
    expect(entityKey("organization", "Chevron Corp.")).toBe("chevron");
    expect(entityKey("organization", "Kyocera Corporation")).toBe("kyocera");
    expect(entityKey("organization", "Samsung Electronics Co., Ltd.")).toBe("samsung electronics");
    expect(entityKey("organization", "Volkswagen AG")).toBe("volkswagen");
    expect(entityKey("organization", "Deutsche Bank GmbH")).toBe("deutsche bank");
    expect(entityKey("organization", "HSBC Holdings plc")).toBe("hsbc");
    expect(entityKey("organization", "Company")).toBe("company");
    expect(entityKey("name", "Ford Motor Co")).toBe("ford motor co");
  });

  it("strips leading honorifics from people only, repeatedly, never the last word", () => {
    expect(entityKey("person", "Dame Judi Dench")).toBe("judi dench");
    expect(entityKey("person", "Justice Clarence Thomas")).toBe("clarence thomas");
    expect(entityKey("person", "Vice President Kamala Harris")).toBe("kamala harris");
    expect(entityKey("person", "Dr. Anthony Fauci")).toBe("anthony fauci");
    expect(entityKey("person", "Mr. Mrs. Smith")).toBe("smith");
    expect(entityKey("person", "President")).toBe("president");
    expect(entityKey("organization", "President's Choice")).toBe("presidents choice");
  });

  it("is empty when nothing but punctuation is given", () => {
    expect(entityKey("person", "-- '' ..")).toBe("");
  });
});

describe("entity ids", () => {
  it("reads <type>:<name>, keying the name again", () => {
    expect(parseEntityId("person:Joe Biden")).toEqual({ type: "person", key: "joe biden", id: "person:joe biden" });
    expect(parseEntityId("organization:Chevron Corp")?.id).toBe("organization:chevron");
    expect(parseEntityId("topic:tax_fncact")?.id).toBe("topic:tax fncact");
  });

  it("refuses an unpublished type, a missing colon or an empty name", () => {
    expect(parseEntityId("people:joe biden")).toBeUndefined();
    expect(parseEntityId("joe biden")).toBeUndefined();
    expect(parseEntityId("person:")).toBeUndefined();
    expect(parseEntityId("person: ...")).toBeUndefined();
  });
});

describe("alias matches", () => {
  it("exact, prefix on word boundaries, acronym", () => {
    expect(aliasMatch("joe biden", "joe biden")).toBe("exact");
    expect(aliasMatch("biden", "joe biden")).toBe("prefix");
    expect(aliasMatch("joe", "joe biden")).toBe("prefix");
    expect(aliasMatch("bid", "joe biden")).toBeUndefined();
    expect(aliasMatch("biden", "bidens")).toBeUndefined();
    expect(aliasMatch("nato", "north atlantic treaty organization")).toBe("acronym");
    expect(aliasMatch("north atlantic treaty organization", "nato")).toBe("acronym");
    expect(aliasMatch("fbi", "federal bureau of investigation")).toBe("acronym");
    expect(aliasMatch("joe biden", "jb")).toBe("acronym");
    expect(aliasMatch("nato", "natos")).toBeUndefined();
  });

  it("acronyms and word starts of a key", () => {
    expect(acronymsOf("federal bureau of investigation")).toEqual(["fboi", "fbi"]);
    expect(acronymsOf("nato")).toEqual([]);
    expect(wordStarts("joe r biden")).toEqual(["r biden", "biden"]);
    expect(wordStarts("biden")).toEqual([]);
  });
});
