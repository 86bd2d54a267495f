import { describe, expect, it } from "vitest";
import { windowPieces } from "./window-pieces.js";

describe("windowPieces", () => {
  it("a window on whole days is whole days alone", () => {
    expect(windowPieces("20240101000000", "20240630235959", "day")).toEqual({
      days: { first: "20240101", last: "20240630" },
      hours: [],
      rest: [],
    });
  });

  it("cut edges give whole hours beside the days and stretches shorter than an hour", () => {
    expect(windowPieces("20240101123456", "20240105020000", "day")).toEqual({
      days: { first: "20240102", last: "20240104" },
      hours: [
        { first: "2024010113", last: "2024010123" },
        { first: "2024010500", last: "2024010501" },
      ],
      rest: [
        { from: "20240101123456", to: "20240101125959" },
        { from: "20240105020000", to: "20240105020000" },
      ],
    });
  });

  it("a window inside one day has no whole day; inside one hour it is one stretch", () => {
    expect(windowPieces("20240101100000", "20240101175959", "day")).toEqual({
      hours: [{ first: "2024010110", last: "2024010117" }],
      rest: [],
    });
    expect(windowPieces("20240101101500", "20240101104500", "day")).toEqual({
      hours: [],
      rest: [{ from: "20240101101500", to: "20240101104500" }],
    });
  });

  it("the hour unit never gives days", () => {
    expect(windowPieces("20240101000000", "20240102235959", "hour")).toEqual({
      hours: [{ first: "2024010100", last: "2024010223" }],
      rest: [],
    });
  });

  it("an empty or invalid window gives nothing", () => {
    expect(windowPieces("20240102000000", "20240101000000", "day")).toEqual({ hours: [], rest: [] });
    expect(windowPieces("2024", "20240101000000", "day")).toEqual({ hours: [], rest: [] });
  });
});
