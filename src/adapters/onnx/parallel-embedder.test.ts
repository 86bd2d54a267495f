import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OnnxEmbedder } from "./onnx-embedder.js";
import { ParallelEmbedder, shareOut } from "./parallel-embedder.js";
import { SHIPPED_MODEL_DIR } from "./shipped-model.js";

// Several sessions must give every text the vector one session gives it in the
// same batch: the stage's vectors may not depend on the machine's cores.

const TEXTS = [
  "Senate votes down spending bill",
  "Flooding closes roads across the valley. Jane Doe, Red Cross, Texas",
  "Senate votes down tax bill",
  "Earthquake",
  "Central bank raises interest rates for the third time this year. Federal Reserve, Jerome Powell, Washington",
  "Police investigate shooting at a neighbourhood celebration in Baltimore",
  "Earthquake",
  "Minister resigns",
];

describe("ParallelEmbedder", () => {
  let one: OnnxEmbedder;
  let two: ParallelEmbedder;
  beforeAll(async () => {
    [one, two] = await Promise.all([OnnxEmbedder.load(SHIPPED_MODEL_DIR), ParallelEmbedder.load(SHIPPED_MODEL_DIR, 2)]);
  });
  afterAll(async () => {
    await Promise.all([one.close(), two.close()]);
  });

  it("gives each text of a batch the vector one session gives it, in order", async () => {
    expect(two.sessions).toBe(2);
    expect(two.model).toBe(one.model);
    expect(two.dimensions).toBe(384);
    const [alone, parallel] = await Promise.all([one.embed(TEXTS, "passage"), two.embed(TEXTS, "passage")]);
    expect(parallel).toHaveLength(TEXTS.length);
    parallel.forEach((vector, i) => expect(Array.from(vector), TEXTS[i]).toEqual(Array.from(alone[i] ?? [])));
    // The two copies of one text agree, and differ from the others.
    expect(Array.from(parallel[6] ?? [])).toEqual(Array.from(parallel[3] ?? []));
    expect(Array.from(parallel[0] ?? [])).not.toEqual(Array.from(parallel[2] ?? []));
  });

  it("embeds queries with the query prefix, like one session", async () => {
    const [alone] = await one.embed(["lawmakers reject the budget"], "query");
    const [parallel] = await two.embed(["lawmakers reject the budget"], "query");
    expect(Array.from(parallel ?? [])).toEqual(Array.from(alone ?? []));
  });
});

describe("shareOut", () => {
  const encoded = (lengths: number[]) => lengths.map((n) => Array.from({ length: n }, () => 1));

  it("hands each token length whole to one session, every text once, the sessions' tokens balanced", () => {
    const lengths = [10, 10, 10, 20, 5, 5, 5, 5, 30, 8];
    const shares = shareOut(encoded(lengths), 2);
    expect(shares.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
    for (const width of new Set(lengths)) {
      const holders = shares.filter((share) => share.some((i) => lengths[i] === width));
      expect(holders, `length ${width}`).toHaveLength(1);
    }
    const tokens = shares.map((share) => share.reduce((sum, i) => sum + (lengths[i] ?? 0), 0));
    expect(Math.abs((tokens[0] ?? 0) - (tokens[1] ?? 0))).toBeLessThanOrEqual(30);
  });

  it("gives one session everything, and idle sessions nothing when there are fewer lengths than sessions", () => {
    expect(shareOut(encoded([3, 4, 3]), 1)).toEqual([[0, 2, 1]]);
    const shares = shareOut(encoded([3, 3]), 3);
    expect(shares.filter((s) => s.length > 0)).toEqual([[0, 1]]);
  });
});
