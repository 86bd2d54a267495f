import { describe, expect, it } from "vitest";
import { browseStamp, decodeCursor, encodeCursor, fingerprintOf } from "./browse-cursor.js";

describe("browse cursor", () => {
  it("round-trips a position and fingerprint through an opaque base64url string", () => {
    const fingerprint = fingerprintOf({ language: "eng", from: "20230701000000" });
    const text = encodeCursor({ published_at: "20230702153000", id: "20230702153000-52", served: 17 }, fingerprint);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text)).toEqual({
      position: { published_at: "20230702153000", id: "20230702153000-52", served: 17 },
      fingerprint,
    });
  });

  it("rejects anything it did not issue", () => {
    for (const text of [
      "start",
      "",
      "!!",
      Buffer.from('{"v":2}').toString("base64url"),
      Buffer.from("[]").toString("base64url"),
    ]) {
      expect(decodeCursor(text)).toBeUndefined();
    }
    const bad = Buffer.from(JSON.stringify({ v: 1, p: "2023", i: "x", n: 1, f: "f" })).toString("base64url");
    expect(decodeCursor(bad)).toBeUndefined();
  });

  it("fingerprints filters regardless of order, and tells different ones apart", () => {
    expect(fingerprintOf({ a: "1", b: "2" })).toBe(fingerprintOf({ b: "2", a: "1", c: undefined }));
    expect(fingerprintOf({ a: "1" })).not.toBe(fingerprintOf({ a: "2" }));
  });
});

describe("an article's place in browse order", () => {
  it("is its published_at, else when it was collected, else its id's stamp", () => {
    const id = "20230702153000-42";
    expect(browseStamp({ id, published_at: "20230701120000", collected_at: "20230702153000" })).toBe("20230701120000");
    expect(browseStamp({ id, published_at: null, collected_at: "20230702150000" })).toBe("20230702150000");
    expect(browseStamp({ id, published_at: null, collected_at: null })).toBe("20230702153000");
  });
});
