import { describe, expect, it } from "vitest";
import { decodeTerms, encodeTerms, termOfField } from "./term-blob.js";

describe("the terms blob", () => {
  it("gives back an article's term ids, its story's first and the others ascending, whatever their size", () => {
    const story = 18 + 32 * 70_000;
    const others = [1, 1 + 32 * 5, 14 + 32 * 3, 0xffff_ffe1, 127, 128, 16_383, 16_384, 7 + 32 * 2_000_000];
    const blob = encodeTerms(Uint32Array.from([...others.slice(0, 3), story, ...others.slice(3)]));
    expect([...decodeTerms(blob)]).toEqual([story, ...others.sort((a, b) => a - b)]);
    // SQL reads the story's term from the first 4 bytes (partition-aggregate.ts).
    expect(blob.readUInt32LE(0)).toBe(story);
  });

  it("holds an article in no story with 0 in the story's place, and one without terms as that alone", () => {
    expect([...decodeTerms(encodeTerms(Uint32Array.from([33, 1])))]).toEqual([1, 33]);
    expect(encodeTerms(Uint32Array.from([33, 1])).readUInt32LE(0)).toBe(0);
    expect(encodeTerms(new Uint32Array(0))).toEqual(Buffer.alloc(4));
    expect(decodeTerms(encodeTerms(new Uint32Array(0))).length).toBe(0);
  });

  it("takes well under 4 bytes an id for an article's usual terms", () => {
    // Topics (code 1) near the start of their sequence, names (4) further on, one source (14), one story (18).
    const ids = Uint32Array.from([
      ...Array.from({ length: 20 }, (_, i) => 1 + 32 * (i * 37)),
      ...Array.from({ length: 8 }, (_, i) => 4 + 32 * (40_000 + i * 911)),
      14 + 32 * 812,
      18 + 32 * 11_000,
    ]);
    const blob = encodeTerms(ids);
    expect(blob.length).toBeLessThan(2.5 * ids.length);
    expect(termOfField(decodeTerms(blob), 18)).toBe(18 + 32 * 11_000);
    expect(termOfField(decodeTerms(blob), 14)).toBe(14 + 32 * 812);
  });

  it("reads a blob handed over as a slice of a larger buffer", () => {
    const blob = encodeTerms(Uint32Array.from([5, 37, 18 + 32, 69]));
    const larger = new Uint8Array(blob.length + 3);
    larger.set(blob, 1);
    expect([...decodeTerms(larger.subarray(1, 1 + blob.length))]).toEqual([18 + 32, 5, 37, 69]);
  });
});
