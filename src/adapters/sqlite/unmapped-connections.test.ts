import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ArticlePartition } from "./article-partition.js";
import { UnmappedConnections } from "./unmapped-connections.js";

// An export's connections on real monthly index files: reused read after read,
// the least recently used closed past the limit, all closed once idle.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function indexes(months: string[]): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "unmapped-"));
  dirs.push(dir);
  const paths = new Map<string, string>();
  for (const month of months) {
    const path = join(dir, `articles-${month}.db`);
    new ArticlePartition(month, path, { create: true }).close();
    paths.set(month, path);
  }
  return paths;
}

describe("UnmappedConnections", () => {
  it("reads an index through one connection that maps nothing, read after read", () => {
    const paths = indexes(["202401"]);
    const connections = new UnmappedConnections({ mostOpen: 2, idleMs: 60_000 });
    const path = paths.get("202401") as string;
    const first = connections.run("202401", path, (partition) => partition);
    const second = connections.run("202401", path, (partition) => partition);
    expect(second).toBe(first);
    expect(first.db.pragma("mmap_size", { simple: true })).toBe(0);
    connections.closeAll();
    expect(first.db.open).toBe(false);
  });

  it("closes the index read longest ago past the limit, and one whose read failed", () => {
    const paths = indexes(["202401", "202402", "202403"]);
    const connections = new UnmappedConnections({ mostOpen: 2, idleMs: 60_000 });
    const open = (month: string): ArticlePartition => connections.run(month, paths.get(month) as string, (p) => p);
    const [january, february] = [open("202401"), open("202402")];
    open("202401");
    const march = open("202403");
    expect([january.db.open, february.db.open, march.db.open]).toEqual([true, false, true]);
    expect(() =>
      connections.run("202403", paths.get("202403") as string, () => {
        throw new Error("a damaged file");
      }),
    ).toThrow("a damaged file");
    expect(march.db.open).toBe(false);
    expect(open("202403")).not.toBe(march);
    connections.closeAll();
  });

  it("closes every connection once no read came for the idle time", async () => {
    const paths = indexes(["202401"]);
    const connections = new UnmappedConnections({ mostOpen: 2, idleMs: 50 });
    const partition = connections.run("202401", paths.get("202401") as string, (p) => p);
    expect(partition.db.open).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(partition.db.open).toBe(false);
  });
});
