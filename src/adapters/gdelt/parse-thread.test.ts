import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceRecord } from "../../ports/article-source.js";
import { GkgArticleSource } from "./gkg-source.js";
import { ParseThreadSource, withParseThread } from "./parse-thread.js";

// The parse thread must hand over exactly what the GKG source reads in the
// ingest thread: every record, good and bad, in order, file after file.

const GKG_DIR = fileURLToPath(new URL("../../../data/gkg/", import.meta.url));
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const FILES = [join(GKG_DIR, "20230702153000.gkg.csv.gz"), join(FIXTURES, "20160101020000.gkg.csv.zip")];

async function readAll(source: { read(path: string): AsyncIterable<SourceRecord> }, path: string): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of source.read(path)) out.push(record);
  return out;
}

describe("ParseThreadSource", () => {
  let inline: GkgArticleSource;
  let threaded: ParseThreadSource;
  let tmp: string;
  beforeAll(async () => {
    inline = await GkgArticleSource.create();
    // Every file goes to the thread, in hand-overs of 100 records.
    threaded = new ParseThreadSource(inline, { minBytes: 0, chunk: 100 });
    tmp = mkdtempSync(join(tmpdir(), "parse-thread-"));
  });
  afterAll(async () => {
    await threaded.release();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("reads every record of gzip and zip files as the ingest thread does, in order", async () => {
    for (const file of FILES) {
      const [here, there] = await Promise.all([readAll(inline, file), readAll(threaded, file)]);
      expect(there.length, file).toBeGreaterThan(0);
      expect(there, file).toEqual(here);
    }
    // Many hand-overs.
    expect((await readAll(inline, FILES[0] as string)).length).toBeGreaterThan(900);
  });

  it("reads the file named next ahead, and gives each file its own records when another comes first", async () => {
    const [big, zip] = FILES as [string, string];
    const read = async (path: string, next?: string) => {
      const out: SourceRecord[] = [];
      for await (const record of threaded.read(path, next === undefined ? {} : { next })) out.push(record);
      return out;
    };
    const expectedBig = await readAll(inline, big);
    const expectedZip = await readAll(inline, zip);
    expect(await read(zip, big)).toEqual(expectedZip);
    expect(await read(big, zip)).toEqual(expectedBig);
    // The file read ahead (zip) is not the one asked for next: the big one still reads whole.
    expect(await read(big)).toEqual(expectedBig);
    expect(await read(zip)).toEqual(expectedZip);
  });

  it("starts the next file from its first record when a reader stopped part way", async () => {
    let taken = 0;
    for await (const _record of threaded.read(FILES[0] as string)) if (++taken === 250) break;
    const next = await readAll(threaded, FILES[1] as string);
    expect(next).toEqual(await readAll(inline, FILES[1] as string));
  });

  it("fails the read of a corrupt file with the reason, and reads the next file after it", async () => {
    const corrupt = join(tmp, "corrupt.gkg.csv.gz");
    writeFileSync(corrupt, Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x00]), Buffer.alloc(4096, 7)]));
    await expect(readAll(threaded, corrupt)).rejects.toThrow(/header|invalid|incorrect/i);
    expect(await readAll(threaded, FILES[1] as string)).toEqual(await readAll(inline, FILES[1] as string));
  });

  it("reads small files in the ingest thread without starting the thread", async () => {
    const small = new ParseThreadSource(inline);
    expect(await readAll(small, FILES[1] as string)).toEqual(await readAll(inline, FILES[1] as string));
    await small.release();
  });
});

describe("withParseThread", () => {
  it("parses on a thread only where a core is left for it beside ingest, clustering and the writer", async () => {
    const inline = await GkgArticleSource.create();
    expect(withParseThread(inline, 2)).toBe(inline);
    expect(withParseThread(inline, 3)).toBe(inline);
    expect(withParseThread(inline, 4)).toBeInstanceOf(ParseThreadSource);
  });
});
