import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../src/cli/main.js";
import { CLI, freePort, ROOT, runCli } from "./support/cli-process.js";
import { SAMPLE_FILES } from "./support/test-server.js";

// The command-line contract: each command run in process through the CLI's
// own entry, run(argv, io), on real data dirs; one first start as a user runs
// it, a real process serving on a real port.

const SUMMARY = /^ingested (\d+) records \((\d+) new, (\d+) unchanged\), skipped (\d+), [\d.]+ s, \d+ records\/s$/m;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-cli-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe("newsindex ingest", () => {
  it("skips a malformed line, reports its number, and is idempotent on a second run", async () => {
    const lines = gunzipSync(readFileSync(SAMPLE_FILES.batch2016)).toString("utf8").split("\n");
    lines.splice(3, 0, "this line\tis not a GKG record");
    const file = join(dir, "20160101020000.gkg.csv");
    writeFileSync(file, lines.join("\n"));
    const dataDir = join(dir, "ingest");

    const first = await runCli(["ingest", "--data-dir", dataDir, file]);
    expect(first.status).toBe(0);
    const summary = SUMMARY.exec(first.stdout);
    expect(summary?.slice(1, 5)).toEqual(["11", "10", "0", "1"]);
    expect(first.stderr).toContain(`skipped ${file}:4:`);

    const again = await runCli(["ingest", "--data-dir", dataDir, file]);
    expect(SUMMARY.exec(again.stdout)?.slice(1, 5)).toEqual(["11", "0", "10", "1"]);
  });

  it("takes the data dir from NEWSINDEX_DATA_DIR", async () => {
    const dataDir = join(dir, "from-env");
    const ingested = await runCli(["ingest", SAMPLE_FILES.batch2016], { NEWSINDEX_DATA_DIR: dataDir });
    expect(ingested.status).toBe(0);
    expect(SUMMARY.exec(ingested.stdout)?.[2]).toBe("10");
  });

  it("refuses bad usage with exit 2", async () => {
    const keysDir = join(dir, "bad-usage");
    expect((await runCli(["ingest"])).status).toBe(2);
    expect((await runCli(["frobnicate"])).status).toBe(2);
    expect((await runCli(["serve", "--port", "http"])).status).toBe(2);
    expect((await runCli(["keys", "create", "--data-dir", keysDir, "--tenant", "x", "--plan", "platinum"])).status).toBe(2);
  });
});

describe("NEWSINDEX_INDEX", () => {
  it("ingests into the embedded index by default and when set to sqlite; refuses an engine it does not know", async () => {
    const dataDir = join(dir, "index-choice");
    const ingested = await runCli(["ingest", "--data-dir", dataDir, SAMPLE_FILES.batch2016], { NEWSINDEX_INDEX: "sqlite" });
    expect(ingested.status).toBe(0);
    expect(SUMMARY.exec(ingested.stdout)?.[2]).toBe("10");
    const unknown = await runCli(["ingest", "--data-dir", dataDir, SAMPLE_FILES.batch2016], { NEWSINDEX_INDEX: "elastic" });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("index");
  });

  it("refuses opensearch without a node to reach, with a clear configuration error", async () => {
    const refused = await runCli(["ingest", "--data-dir", join(dir, "index-opensearch"), SAMPLE_FILES.batch2016], {
      NEWSINDEX_INDEX: "opensearch",
      NEWSINDEX_OPENSEARCH_URL: "",
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("NEWSINDEX_INDEX=opensearch needs NEWSINDEX_OPENSEARCH_URL");
  });
});

describe("newsindex keys", () => {
  it("creates, lists and revokes keys; the secret is shown once", async () => {
    const dataDir = join(dir, "keys");
    const created = await runCli(["keys", "create", "--data-dir", dataDir, "--tenant", "acme", "--plan", "build", "--json"]);
    expect(created.status).toBe(0);
    const issued = JSON.parse(created.stdout.trim()) as { key: string; key_id: string; tenant: string; plan: string };
    expect(issued.tenant).toBe("acme");
    expect(issued.plan).toBe("build");
    expect(issued.key).toMatch(/^nk_/);

    const listed = await runCli(["keys", "list", "--data-dir", dataDir]);
    expect(listed.stdout).toContain(issued.key_id);
    expect(listed.stdout).toContain("acme");
    expect(listed.stdout).not.toContain(issued.key);

    expect((await runCli(["keys", "revoke", "--data-dir", dataDir, issued.key_id])).status).toBe(0);
    const json = JSON.parse((await runCli(["keys", "list", "--data-dir", dataDir, "--json"])).stdout) as Array<{
      revoked_at: string | null;
    }>;
    expect(json[0]?.revoked_at).toMatch(/^\d{14}$/);
    expect((await runCli(["keys", "revoke", "--data-dir", dataDir, issued.key_id])).status).toBe(1);
  });
});

describe("newsindex tenants and key lifecycle", () => {
  it("creates, lists, suspends and re-plans tenants; issues short-lived keys; rotates", async () => {
    const dataDir = join(dir, "lifecycle");
    const on = (...args: string[]) => runCli([args[0] as string, args[1] as string, "--data-dir", dataDir, ...args.slice(2)]);
    expect((await on("tenants", "create", "globex", "--plan", "free")).status).toBe(0);
    expect((await on("tenants", "create", "globex", "--plan", "free")).status).toBe(1);
    expect((await on("tenants", "suspend", "globex")).stdout).toContain("suspended");
    expect((await on("tenants", "set-plan", "globex", "scale")).stdout).toContain("scale");
    const tenants = JSON.parse((await on("tenants", "list", "--json")).stdout) as Array<{
      name: string;
      plan: string;
      suspended: boolean;
    }>;
    expect(tenants).toEqual([expect.objectContaining({ name: "globex", plan: "scale", suspended: true })]);

    const short = JSON.parse((await on("keys", "create", "--tenant", "globex", "--ttl-hours", "2", "--json")).stdout) as {
      key_id: string;
      expires_at: string;
    };
    expect(short.expires_at).toMatch(/^\d{14}$/);
    const tooLong = await on("keys", "create", "--tenant", "globex", "--ttl-hours", "30");
    expect(tooLong.status).toBe(1);
    expect(tooLong.stderr).toContain("at most 24 hours");

    const rotated = JSON.parse((await on("keys", "rotate", short.key_id, "--grace-minutes", "0", "--json")).stdout) as {
      key: string;
      replaces: string;
    };
    expect(rotated.replaces).toBe(short.key_id);
    expect(rotated.key).toMatch(/^nk_/);
    const keys = JSON.parse((await on("keys", "list", "--json")).stdout) as Array<{ key_id: string; revoked_at: string | null }>;
    expect(keys.find((k) => k.key_id === short.key_id)?.revoked_at).toMatch(/^\d{14}$/);
  });
});

describe("newsindex start", () => {
  // The one test of the command as a process: the bin starts, ingests, serves, and stops on a signal.
  it("ingests the bundled sample and prints a working key on first start only", async () => {
    const dataDir = join(dir, "start");
    const first = await startAndQuery(dataDir);
    expect(first.key).toMatch(/^nk_/);
    expect(first.total).toBe(1360);

    // The second start, in process (the spawned one above is the smoke test): it only serves.
    const second = await startInProcess(dataDir, first.key);
    expect(second.printedKey).toBe(false);
    expect(second.total).toBe(1360);
  }, 600_000);

  it("embeds what it serves behind keyword indexing: semantic search becomes complete on its own", async () => {
    // The smallest data that shows it: the 2016 batch's ten articles, ingested, then served with the embedding stage on.
    const dataDir = join(dir, "serve-embeds");
    expect((await runCli(["ingest", "--data-dir", dataDir, SAMPLE_FILES.batch2016])).status).toBe(0);
    const key = JSON.parse(
      (await runCli(["keys", "create", "--data-dir", dataDir, "--tenant", "t", "--plan", "archive", "--json"])).stdout,
    ) as {
      key: string;
    };
    const port = await freePort();
    let stop: (() => Promise<void>) | undefined;
    const code = await run(["serve", "--data-dir", dataDir, "--port", String(port)], {
      env: { ...process.env, LOG_LEVEL: "silent", NEWSINDEX_EMBED_IN_SERVER: "on", NEWSINDEX_CONSOLE_PORT: "0" },
      out: () => undefined,
      err: () => undefined,
      serving: (stopServing) => (stop = stopServing),
    });
    try {
      expect(code).toBe(-1);
      const semantic = await semanticOnceEmbedded(port, key.key);
      expect(semantic).toMatchObject({ partial: false, coverage: "complete" });
      expect(semantic.results.length).toBeGreaterThan(0);
    } finally {
      await stop?.();
    }
  });

  it("starts over a data dir whose story clusters another clustering version wrote, with no readable index", async () => {
    const dataDir = join(dir, "start-old-stories");
    mkdirSync(dataDir);
    const old = new Database(join(dataDir, "stories.db"));
    old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    old.prepare("INSERT INTO meta VALUES ('clustering_version', 'stories-v2')").run();
    old.close();

    const started = await startInProcess(dataDir);
    expect(started.total).toBe(1360);
    expect(started.printedKey).toBe(true);
    expect(readdirSync(dataDir).filter((f) => f.startsWith("stories.db.set-aside-"))).toHaveLength(1);
  });
});

/** Runs `newsindex start` in process, searches with the key it printed (or the one given), then stops it as a signal would. */
async function startInProcess(dataDir: string, knownKey?: string): Promise<{ total: number; printedKey: boolean }> {
  const port = await freePort();
  const stdout: string[] = [];
  let stop: (() => Promise<void>) | undefined;
  const code = await run(["start", "--data-dir", dataDir, "--port", String(port)], {
    env: { ...process.env, LOG_LEVEL: "silent", NEWSINDEX_EMBED_IN_SERVER: "off", NEWSINDEX_CONSOLE_PORT: "0" },
    out: (text) => stdout.push(text),
    err: () => undefined,
    serving: (stopServing) => (stop = stopServing),
  });
  try {
    expect(code).toBe(-1);
    const printed = /\b(nk_[A-Za-z0-9_-]+)/.exec(stdout.join("\n"))?.[1];
    const response = await fetch(`http://127.0.0.1:${port}/search?limit=1`, {
      headers: { "x-api-key": printed ?? knownKey ?? "" },
    });
    const body = (await response.json()) as { total: number };
    return { total: body.total, printedKey: printed !== undefined };
  } finally {
    await stop?.();
  }
}

/** Runs `newsindex start` as a process, waits for it to serve, searches with the key it printed, then stops it. */
async function startAndQuery(dataDir: string): Promise<{ key: string; total: number; printedKey: boolean }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, "start", "--data-dir", dataDir, "--port", String(port)], {
    cwd: ROOT,
    // No balancer checks it: SIGTERM stops it at once (the drain notice is serve-drain.test.ts's).
    env: { ...process.env, LOG_LEVEL: "silent", NEWSINDEX_CONSOLE_PORT: "0", NEWSINDEX_DRAIN_SECONDS: "0" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 180_000;
    while (!stderr.includes("NewsIndex serving")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`start did not serve:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const printed = /\b(nk_[A-Za-z0-9_-]+)/.exec(stdout)?.[1];
    const key = printed ?? "";
    const response = await fetch(`http://127.0.0.1:${port}/search?limit=1`, { headers: { "x-api-key": key } });
    const body = (await response.json()) as { total: number };
    return { key, total: body.total, printedKey: printed !== undefined };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

interface SemanticAnswer {
  partial: boolean;
  coverage: string;
  results: unknown[];
}

/** Asks a semantic query until the answer is complete (the server's embedding stage caught up), for eight minutes at most (a busy machine). */
async function semanticOnceEmbedded(port: number, key: string): Promise<SemanticAnswer> {
  const deadline = Date.now() + 480_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/search?q=gunfire+at+a+party&mode=semantic&limit=3`, {
      headers: { "x-api-key": key },
    });
    const body = (await response.json()) as SemanticAnswer;
    if (!body.partial || Date.now() > deadline) return body;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
