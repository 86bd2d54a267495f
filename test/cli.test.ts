import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, freePort, ROOT } from "./support/cli-process.js";
import { SAMPLE_FILES } from "./support/test-server.js";

// The command-line contract, run as a user runs it: a real process.

/** Each run starts Node and compiles the CLI with tsx, about 2.5 s on a 2-core machine; some tests run it a dozen times. */
const CLI_RUNS_TIMEOUT_MS = 120_000;
const SUMMARY = /^ingested (\d+) records \((\d+) new, (\d+) unchanged\), skipped (\d+), [\d.]+ s, \d+ records\/s$/m;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-cli-"));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("newsindex ingest", () => {
  it("skips a malformed line, reports its number, and is idempotent on a second run", { timeout: CLI_RUNS_TIMEOUT_MS }, () => {
    const lines = gunzipSync(readFileSync(SAMPLE_FILES.batch2016)).toString("utf8").split("\n");
    lines.splice(3, 0, "this line\tis not a GKG record");
    const file = join(dir, "20160101020000.gkg.csv");
    writeFileSync(file, lines.join("\n"));
    const dataDir = join(dir, "ingest");

    const first = cli(["ingest", "--data-dir", dataDir, file]);
    expect(first.status).toBe(0);
    const summary = SUMMARY.exec(first.stdout);
    expect(summary?.slice(1, 5)).toEqual(["11", "10", "0", "1"]);
    expect(first.stderr).toContain(`skipped ${file}:4:`);

    const again = cli(["ingest", "--data-dir", dataDir, file]);
    expect(SUMMARY.exec(again.stdout)?.slice(1, 5)).toEqual(["11", "0", "10", "1"]);
  });

  it("takes the data dir from NEWSINDEX_DATA_DIR", () => {
    const dataDir = join(dir, "from-env");
    const run = cli(["ingest", SAMPLE_FILES.batch2016], { NEWSINDEX_DATA_DIR: dataDir });
    expect(run.status).toBe(0);
    expect(SUMMARY.exec(run.stdout)?.[2]).toBe("10");
  });

  it("refuses bad usage with exit 2", { timeout: CLI_RUNS_TIMEOUT_MS }, () => {
    expect(cli(["ingest"]).status).toBe(2);
    expect(cli(["frobnicate"]).status).toBe(2);
    expect(cli(["serve", "--port", "http"]).status).toBe(2);
    expect(cli(["keys", "create", "--tenant", "x", "--plan", "platinum"]).status).toBe(2);
  });
});

describe("newsindex keys", () => {
  it(
    "creates, lists and revokes keys; the secret is shown once",
    () => {
      const dataDir = join(dir, "keys");
      const created = cli(["keys", "create", "--data-dir", dataDir, "--tenant", "acme", "--plan", "build", "--json"]);
      expect(created.status).toBe(0);
      const issued = JSON.parse(created.stdout.trim()) as { key: string; key_id: string; tenant: string; plan: string };
      expect(issued.tenant).toBe("acme");
      expect(issued.plan).toBe("build");
      expect(issued.key).toMatch(/^nk_/);

      const listed = cli(["keys", "list", "--data-dir", dataDir]);
      expect(listed.stdout).toContain(issued.key_id);
      expect(listed.stdout).toContain("acme");
      expect(listed.stdout).not.toContain(issued.key);

      expect(cli(["keys", "revoke", "--data-dir", dataDir, issued.key_id]).status).toBe(0);
      const json = JSON.parse(cli(["keys", "list", "--data-dir", dataDir, "--json"]).stdout) as Array<{
        revoked_at: string | null;
      }>;
      expect(json[0]?.revoked_at).toMatch(/^\d{14}$/);
      expect(cli(["keys", "revoke", "--data-dir", dataDir, issued.key_id]).status).toBe(1);
    },
    CLI_RUNS_TIMEOUT_MS,
  );
});

describe("newsindex tenants and key lifecycle", () => {
  it(
    "creates, lists, suspends and re-plans tenants; issues short-lived keys; rotates",
    () => {
      const dataDir = join(dir, "lifecycle");
      const run = (...args: string[]) => cli([args[0] as string, args[1] as string, "--data-dir", dataDir, ...args.slice(2)]);
      expect(run("tenants", "create", "globex", "--plan", "free").status).toBe(0);
      expect(run("tenants", "create", "globex", "--plan", "free").status).toBe(1);
      expect(run("tenants", "suspend", "globex").stdout).toContain("suspended");
      expect(run("tenants", "set-plan", "globex", "scale").stdout).toContain("scale");
      const tenants = JSON.parse(run("tenants", "list", "--json").stdout) as Array<{
        name: string;
        plan: string;
        suspended: boolean;
      }>;
      expect(tenants).toEqual([expect.objectContaining({ name: "globex", plan: "scale", suspended: true })]);

      const short = JSON.parse(run("keys", "create", "--tenant", "globex", "--ttl-hours", "2", "--json").stdout) as {
        key_id: string;
        expires_at: string;
      };
      expect(short.expires_at).toMatch(/^\d{14}$/);
      const tooLong = run("keys", "create", "--tenant", "globex", "--ttl-hours", "30");
      expect(tooLong.status).toBe(1);
      expect(tooLong.stderr).toContain("at most 24 hours");

      const rotated = JSON.parse(run("keys", "rotate", short.key_id, "--grace-minutes", "0", "--json").stdout) as {
        key: string;
        replaces: string;
      };
      expect(rotated.replaces).toBe(short.key_id);
      expect(rotated.key).toMatch(/^nk_/);
      const keys = JSON.parse(run("keys", "list", "--json").stdout) as Array<{ key_id: string; revoked_at: string | null }>;
      expect(keys.find((k) => k.key_id === short.key_id)?.revoked_at).toMatch(/^\d{14}$/);
    },
    CLI_RUNS_TIMEOUT_MS,
  );
});

describe("newsindex start", () => {
  it("ingests the bundled sample and prints a working key on first start only", async () => {
    const dataDir = join(dir, "start");
    const first = await startAndQuery(dataDir, undefined, { semantic: true });
    expect(first.key).toMatch(/^nk_/);
    expect(first.total).toBe(1360);
    // The server embeds the sample behind keyword indexing: semantic search becomes complete on its own.
    expect(first.semantic).toMatchObject({ partial: false, coverage: "complete" });
    expect(first.semantic?.results.length).toBeGreaterThan(0);

    const second = await startAndQuery(dataDir, first.key);
    expect(second.printedKey).toBe(false);
    expect(second.total).toBe(1360);
  }, 240_000);

  it("starts over a data dir whose story clusters another clustering version wrote, with no readable index", async () => {
    const dataDir = join(dir, "start-old-stories");
    mkdirSync(dataDir);
    const old = new Database(join(dataDir, "stories.db"));
    old.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
    old.prepare("INSERT INTO meta VALUES ('clustering_version', 'stories-v2')").run();
    old.close();

    const started = await startAndQuery(dataDir);
    expect(started.total).toBe(1360);
    expect(readdirSync(dataDir).filter((f) => f.startsWith("stories.db.set-aside-"))).toHaveLength(1);
  }, 60_000);
});

/** Runs `newsindex start`, waits for it to serve, searches with the printed (or given) key, then stops it. */
async function startAndQuery(
  dataDir: string,
  knownKey?: string,
  options: { semantic?: boolean } = {},
): Promise<{ key: string; total: number; printedKey: boolean; semantic?: SemanticAnswer }> {
  const port = await freePort();
  const child = spawn(process.execPath, [...CLI, "start", "--data-dir", dataDir, "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent" },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const deadline = Date.now() + 45_000;
    while (!stderr.includes("NewsIndex serving")) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`start did not serve:\n${stdout}\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const printed = /\b(nk_[A-Za-z0-9_-]+)/.exec(stdout)?.[1];
    const key = printed ?? knownKey ?? "";
    const response = await fetch(`http://127.0.0.1:${port}/search?limit=1`, { headers: { "x-api-key": key } });
    const body = (await response.json()) as { total: number };
    const semantic = options.semantic ? await semanticOnceEmbedded(port, key) : undefined;
    return { key, total: body.total, printedKey: printed !== undefined, ...(semantic ? { semantic } : {}) };
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

/** Asks a semantic query until the answer is complete (the server's embedding stage caught up), for two minutes at most. */
async function semanticOnceEmbedded(port: number, key: string): Promise<SemanticAnswer> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/search?q=gunfire+at+a+party&mode=semantic&limit=3`, {
      headers: { "x-api-key": key },
    });
    const body = (await response.json()) as SemanticAnswer;
    if (!body.partial || Date.now() > deadline) return body;
    await new Promise((r) => setTimeout(r, 1000));
  }
}
