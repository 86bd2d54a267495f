import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import { testOpenSearch, type TestOpenSearch } from "../support/opensearch.js";

// `newsindex indices ahead|retain` on a real node: months created from the template behind the read alias, and
// retention dropping whole months older than the horizon (the horizon counted from this month, UTC).

let node: TestOpenSearch;
let dataDir: string;

beforeAll(async () => {
  node = await testOpenSearch();
  dataDir = mkdtempSync(join(tmpdir(), "newsindex-indices-"));
});

afterAll(async () => {
  await node?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

async function indices(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const env = {
    NEWSINDEX_INDEX: "opensearch",
    NEWSINDEX_OPENSEARCH_URL: node.urls.join(","),
    NEWSINDEX_OPENSEARCH_PREFIX: node.prefix,
    LOG_LEVEL: "silent",
  };
  const code = await run(["indices", ...args, "--data-dir", dataDir], {
    env,
    out: (text) => (out += `${text}\n`),
    err: (text) => (err += `${text}\n`),
  });
  return { code, out, err };
}

function monthsFrom(now: Date, by: number): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + by, 1));
  return `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

async function months(): Promise<string[]> {
  const { body } = await node.client.cat.indices({ index: `${node.prefix}-articles-*`, format: "json", h: ["index"] });
  return (body as unknown as Array<{ index: string }>).map((r) => r.index.slice(`${node.prefix}-articles-`.length)).sort();
}

describe("newsindex indices", () => {
  it("creates this month's index and the next ahead, from the template and behind the read alias, once", async () => {
    const now = new Date();
    const first = await indices("ahead", "--months", "1", "--json");
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toEqual({ created: [monthsFrom(now, 0), monthsFrom(now, 1)], existing: [] });
    expect(await months()).toEqual([monthsFrom(now, 0), monthsFrom(now, 1)]);
    const alias = await node.client.indices.getAlias({ name: `${node.prefix}-articles` });
    expect(Object.keys(alias.body).sort()).toEqual(
      [monthsFrom(now, 0), monthsFrom(now, 1)].map((m) => `${node.prefix}-articles-${m}`),
    );
    const again = await indices("ahead", "--json");
    expect(JSON.parse(again.out)).toEqual({ created: [], existing: [monthsFrom(now, 0), monthsFrom(now, 1)] });
  });

  it("drops the months older than the horizon, after a dry run that only names them", async () => {
    const now = new Date();
    for (const by of [-14, -13, -2]) {
      await node.client.indices.create({ index: `${node.prefix}-articles-${monthsFrom(now, by)}` });
    }
    const dry = await indices("retain", "--keep-months", "12", "--dry-run", "--json");
    expect(JSON.parse(dry.out)).toMatchObject({ dropped: [monthsFrom(now, -14), monthsFrom(now, -13)], dry_run: true });
    expect(await months()).toHaveLength(5);
    const real = await indices("retain", "--keep-months", "12");
    expect(real.code).toBe(0);
    expect(await months()).toEqual([monthsFrom(now, -2), monthsFrom(now, 0), monthsFrom(now, 1)]);
  });

  it("refuses retention without a horizon, and the commands in the embedded shape", async () => {
    expect((await indices("retain")).code).toBe(2);
    let err = "";
    const code = await run(["indices", "ahead", "--data-dir", dataDir], {
      env: { LOG_LEVEL: "silent" },
      out: () => undefined,
      err: (text) => (err += text),
    });
    expect(code).toBe(2);
    expect(err).toMatch(/NEWSINDEX_INDEX=opensearch/);
  });
});
