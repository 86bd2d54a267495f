import { describe, expect, it } from "vitest";
import { physicalLines, type PhysicalLine } from "./physical-lines.js";

async function collect(chunks: (Uint8Array | string)[], max?: number): Promise<PhysicalLine[]> {
  const out: PhysicalLine[] = [];
  async function* source(): AsyncGenerator<Uint8Array | string> {
    yield* chunks;
  }
  for await (const line of physicalLines(source(), max)) out.push(line);
  return out;
}

describe("physicalLines", () => {
  it("numbers lines from 1 across chunk boundaries and keeps a last line without newline", async () => {
    expect(await collect(["a\tb\nc", "d\n\ne", "f"])).toEqual([
      { line: 1, text: "a\tb" },
      { line: 2, text: "cd" },
      { line: 3, text: "" },
      { line: 4, text: "ef" },
    ]);
  });

  it("decodes a UTF-8 character split across two byte chunks, and drops a BOM", async () => {
    const bytes = Buffer.from("\uFEFFRöyksopp\n", "utf8");
    const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of ö
    expect(await collect([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([{ line: 1, text: "Röyksopp" }]);
  });

  it("ends lines only at \\n: CRLF loses its \\r, a lone \\r stays in the text", async () => {
    expect(await collect(["a\r\nb\rc\n"])).toEqual([
      { line: 1, text: "a" },
      { line: 2, text: "b\rc" },
    ]);
  });

  it("reports an over-long line instead of buffering it, and carries on", async () => {
    expect(await collect(["ok\n", "x".repeat(6), "y".repeat(6), "\nnext\n"], 10)).toEqual([
      { line: 1, text: "ok" },
      { line: 2, tooLong: true },
      { line: 3, text: "next" },
    ]);
  });
});
