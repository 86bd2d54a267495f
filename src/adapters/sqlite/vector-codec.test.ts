import { describe, expect, it } from "vitest";
import { toVector } from "./partition-vectors.js";
import { quantise } from "./vector-codec.js";

/** A unit vector like a sentence model's: small components, a few larger ones. */
function unitVector(seed: number): Float32Array {
  const v = new Float32Array(384);
  let x = seed;
  for (let d = 0; d < v.length; d++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[d] = (x / 2147483648 - 0.5) * (d % 50 === 0 ? 8 : 1);
  }
  const norm = Math.hypot(...v);
  return v.map((c) => c / norm);
}

describe("quantise", () => {
  it("gives the largest component the full int8 range and rounds every other to within half a step", () => {
    const v = unitVector(7);
    const { scale, components } = quantise(v);
    expect(Math.max(...components.map(Math.abs))).toBe(127);
    for (let d = 0; d < v.length; d++)
      expect(Math.abs((components[d] as number) * scale - (v[d] as number))).toBeLessThanOrEqual(scale / 2 + 1e-9);
  });

  it("keeps cosine similarity between two vectors to within 0.005", () => {
    for (let seed = 1; seed < 20; seed++) {
      const a = unitVector(seed);
      const b = unitVector(seed + 100).map((c, d) => c + (a[d] as number));
      const cos = (x: ArrayLike<number>, y: ArrayLike<number>): number => {
        let dot = 0;
        let nx = 0;
        let ny = 0;
        for (let d = 0; d < x.length; d++) {
          dot += (x[d] as number) * (y[d] as number);
          nx += (x[d] as number) ** 2;
          ny += (y[d] as number) ** 2;
        }
        return dot / Math.sqrt(nx * ny);
      };
      expect(Math.abs(cos(quantise(a).components, quantise(b).components) - cos(a, b))).toBeLessThan(0.005);
    }
  });

  it("reads a stored float32 blob, aligned or not", () => {
    const v = unitVector(3);
    const blob = Buffer.from(v.buffer);
    const unaligned = Buffer.concat([Buffer.alloc(1), blob]).subarray(1);
    expect([...quantise(toVector(unaligned)).components]).toEqual([...quantise(v).components]);
    expect([...quantise(toVector(blob)).components]).toEqual([...quantise(v).components]);
  });

  it("leaves a zero vector zero", () => {
    expect(quantise(new Float32Array(4))).toEqual({ scale: 0, components: new Int8Array(4) });
  });
});
