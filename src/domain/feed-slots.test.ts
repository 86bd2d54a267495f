import { describe, expect, it } from "vitest";
import { isSlot, parseFileList, slotsBetween } from "./feed-slots.js";

// lastupdate.txt in GDELT's layout for the bundled sample's slot, 2023-07-02 15:30 UTC (sizes and md5s made up).
const LASTUPDATE = `147744 c1e8d6ea6fc2c5d2ae4a0cd2ea4d3a5e http://data.gdeltproject.org/gdeltv2/20230702153000.export.CSV.zip
288432 0b0d3d3d2b0b0ed0dc20d0d8f8e1d3c4 http://data.gdeltproject.org/gdeltv2/20230702153000.mentions.CSV.zip
3950921 4f1c2b8e0f5f7a3b6c9d2e1f0a8b7c6d http://data.gdeltproject.org/gdeltv2/20230702153000.gkg.csv.zip
`;

describe("GDELT's file lists", () => {
  it("keep the GKG file of each slot with its size and md5, leaving export and mentions out", () => {
    expect(parseFileList(LASTUPDATE)).toEqual([
      {
        slot: "20230702153000",
        kind: "gkg",
        bytes: 3950921,
        md5: "4f1c2b8e0f5f7a3b6c9d2e1f0a8b7c6d",
        url: "http://data.gdeltproject.org/gdeltv2/20230702153000.gkg.csv.zip",
      },
    ]);
  });

  it("tell the translingual GKG file by its name, and skip malformed lines", () => {
    const text = [
      "123 0123456789ABCDEF0123456789ABCDEF http://x/gdeltv2/20150218230000.translation.gkg.csv.zip",
      "not a line",
      "12 nothex http://x/gdeltv2/20150218231500.gkg.csv.zip",
      "12 0123456789abcdef0123456789abcdef http://x/gdeltv2/20150218230700.gkg.csv.zip",
    ].join("\r\n");
    expect(parseFileList(text)).toEqual([
      {
        slot: "20150218230000",
        kind: "translation",
        bytes: 123,
        md5: "0123456789abcdef0123456789abcdef",
        url: "http://x/gdeltv2/20150218230000.translation.gkg.csv.zip",
      },
    ]);
  });

  it("count slots every 15 minutes, both ends included", () => {
    expect(slotsBetween("20230702150000", "20230702153000")).toEqual(["20230702150000", "20230702151500", "20230702153000"]);
    expect(slotsBetween("20230702150100", "20230702151500")).toEqual(["20230702151500"]);
    expect(isSlot("20230702150700")).toBe(false);
  });
});
