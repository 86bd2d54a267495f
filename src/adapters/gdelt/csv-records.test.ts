import { describe, expect, it } from "vitest";
import { csvRecords, splitCsvRecord, type CsvRecord } from "./csv-records.js";
import type { PhysicalLine } from "./physical-lines.js";

const OPTIONS = { recordStart: /^"?\d{14}-/, maxRecordChars: 1000 };

async function records(texts: string[]): Promise<CsvRecord[]> {
  async function* lines(): AsyncGenerator<PhysicalLine> {
    for (const [i, text] of texts.entries()) yield { line: i + 1, text };
  }
  const out: CsvRecord[] = [];
  for await (const record of csvRecords(lines(), OPTIONS)) out.push(record);
  return out;
}

describe("splitCsvRecord", () => {
  it("splits plain, empty and quoted fields (RFC 4180)", () => {
    expect(splitCsvRecord('a,,"b,c","say ""hi""",')).toEqual(["a", "", "b,c", 'say "hi"', ""]);
    expect(splitCsvRecord('"multi\nline",x')).toEqual(["multi\nline", "x"]);
    expect(splitCsvRecord("")).toEqual([""]);
  });

  it("keeps a stray quote inside an unquoted field as text", () => {
    expect(splitCsvRecord('a,b"c,d')).toEqual(["a", 'b"c', "d"]);
  });

  it("reports an unclosed quote and text after a closing quote", () => {
    expect(splitCsvRecord('a,"open')).toBe("unterminated quoted field");
    expect(splitCsvRecord('a,"x"y,b')).toBe("unexpected text after a closing quote in field 2");
  });
});

describe("csvRecords", () => {
  it("joins a quoted field's lines into one record numbered by its first line", async () => {
    expect(await records(["h1,h2", '20200222011500-1,"two', 'lines"', "", "20200222011500-2,x"])).toEqual([
      { line: 1, fields: ["h1", "h2"] },
      { line: 2, fields: ["20200222011500-1", "two\nlines"] },
      { line: 5, fields: ["20200222011500-2", "x"] },
    ]);
  });

  it("gives up on an unclosed quote when the next record starts, and reads that record", async () => {
    expect(await records(['20200222011500-1,"never closed', "20200222011500-2,ok", '20200222011500-3,"x"y'])).toEqual([
      { line: 1, error: "malformed CSV: unterminated quoted field" },
      { line: 2, fields: ["20200222011500-2", "ok"] },
      { line: 3, error: "malformed CSV: unexpected text after a closing quote in field 2" },
    ]);
  });

  it("reports an unclosed quote at the end of the input", async () => {
    expect(await records(['20200222011500-1,"open', "more"])).toEqual([
      { line: 1, error: "malformed CSV: unterminated quoted field" },
    ]);
  });
});
