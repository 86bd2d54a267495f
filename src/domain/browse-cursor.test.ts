import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, fingerprintOf } from "./browse-cursor.js";

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
