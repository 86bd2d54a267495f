import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ArticlePartition } from "./article-partition.js";
import { partitionPath } from "./catalog/partition-catalog.js";
import { ReadPool } from "./read-pool.js";

// The read pool's threads on a real monthly index: started on first use, or
// every one of them at once as a serving process starts.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function indexDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "read-pool-"));
  dirs.push(dir);
  new ArticlePartition("202401", partitionPath(dir, "202401"), { create: true }).close();
  return dir;
}

describe("ReadPool", () => {
  it("starts a thread only when a read needs one", async () => {
    const pool = new ReadPool(indexDir(), { heavy: 2, light: 1 });
    try {
      expect([pool.answering("heavy"), pool.answering("light")]).toEqual([0, 0]);
      expect(await pool.run("light", { job: "count", month: "202401", args: {} })).toBe(0);
      expect([pool.answering("heavy"), pool.answering("light")]).toEqual([0, 1]);
    } finally {
      await pool.close();
    }
  });

  it("start() brings up every thread of both lanes before any read, and reads then run on them", async () => {
    const pool = new ReadPool(indexDir(), { heavy: 2, light: 1 });
    try {
      await pool.start();
      expect([pool.answering("heavy"), pool.answering("light")]).toEqual([2, 1]);
      const counts = await Promise.all([1, 2, 3].map(() => pool.run("heavy", { job: "count", month: "202401", args: {} })));
      expect(counts).toEqual([0, 0, 0]);
      expect(pool.answering("heavy")).toBe(2);
    } finally {
      await pool.close();
    }
  });
});
