import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GkgArticleSource } from "../gdelt/gkg-source.js";
import { decodeDoc, encodeDoc } from "./doc-codec.js";

const GKG_DIR = fileURLToPath(new URL("../../../data/gkg/", import.meta.url));

describe("stored documents", () => {
  it("give back every real article's JSON exactly, at well under half its size", async () => {
    const source = await GkgArticleSource.create();
    let json = 0;
    let stored = 0;
    let articles = 0;
    // A batch other than the one the dictionary was made from, with translated (non-Latin) records among them.
    for (const file of [
      "spark-gdelt-test_gkg.csv.gz",
      "spark-gdelt-test_gkgT.translation.csv.gz",
      "bq-extract-20200222_sample.csv.gz",
    ]) {
      for await (const record of source.read(join(GKG_DIR, file))) {
        if (!record.ok) continue;
        const text = JSON.stringify(record.article);
        const bytes = encodeDoc(text);
        expect(decodeDoc(bytes)).toBe(text);
        json += Buffer.byteLength(text);
        stored += bytes.length;
        articles++;
      }
    }
    expect(articles).toBeGreaterThan(300);
    expect(stored / json).toBeLessThan(0.4);
  });

  it("keeps text no dictionary word covers: non-Latin scripts, escapes, an empty document", () => {
    for (const text of ['{"title":"Москва — 東京 \\"quoted\\" \\u0000 😀"}', "", "{}"])
      expect(decodeDoc(encodeDoc(text))).toBe(text);
  });

  it("reads bytes handed over as a plain Uint8Array (a worker's structured clone)", () => {
    const bytes = encodeDoc('{"id":"20240101000000-1"}');
    expect(decodeDoc(new Uint8Array(bytes))).toBe('{"id":"20240101000000-1"}');
  });
});
