import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OnnxEmbedder } from "./onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "./shipped-model.js";

// The shipped model must reproduce the reference outputs it came with: token
// ids exactly, every embedding value within 1e-3.

interface Example {
  text: string;
  token_ids: number[];
  embedding: number[];
}

const expected = JSON.parse(readFileSync(join(SHIPPED_MODEL_DIR, "expected.json"), "utf8")) as { examples: Example[] };

describe("OnnxEmbedder on the shipped model", () => {
  let embedder: OnnxEmbedder;
  beforeAll(async () => {
    embedder = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
  });
  afterAll(() => embedder.close());

  it("has reference examples to check against", () => {
    expect(expected.examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(expected.examples.map((e) => [e.text.slice(0, 40), e] as const))("reproduces %s", async (_name, example) => {
    expect(embedder.tokenIds(example.text)).toEqual(example.token_ids);
    // The reference texts carry their prefix already: embed them as written.
    const [vector] = await embedder.embedAsWritten([example.text]);
    expect(vector).toHaveLength(example.embedding.length);
    const worst = Math.max(...example.embedding.map((v, i) => Math.abs(v - (vector?.[i] ?? Infinity))));
    expect(worst).toBeLessThan(1e-3);
  });

  it("gives a text the same vector alone and in a batch of other lengths", async () => {
    const texts = expected.examples.map((e) => e.text);
    const batch = await embedder.embedAsWritten(texts);
    for (const [i, example] of expected.examples.entries()) {
      const worst = Math.max(...example.embedding.map((v, d) => Math.abs(v - (batch[i]?.[d] ?? Infinity))));
      expect(worst).toBeLessThan(1e-3);
    }
  });

  it("adds the model's query and passage prefixes and gives unit vectors", async () => {
    expect(embedder.model).toBe("e5-small-v2-q");
    expect(embedder.dimensions).toBe(384);
    const [query] = await embedder.embed(["lawmakers reject the budget"], "query");
    const [passage] = await embedder.embed(["lawmakers reject the budget"], "passage");
    const norm = Math.hypot(...(query ?? []));
    expect(norm).toBeCloseTo(1, 5);
    // Different prefixes, different vectors.
    expect(Array.from(query ?? [])).not.toEqual(Array.from(passage ?? []));
  });
});
