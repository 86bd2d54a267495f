import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, spawnCli, waitUntil } from "../support/cli-process.js";
import { startTestServer } from "../support/test-server.js";

// SIGTERM to a real `newsindex serve` (a replica behind a load balancer): its readiness fails at once
// ("draining"), it keeps answering for the notice a balancer needs to take it out, then stops taking connections
// and answers what it already has (an upload under way, a call sent behind it on that connection) before it exits 0. docs/operators.md, "A local cluster".

let dir: string;
let key: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "newsindex-drain-"));
  // The sample and an archive-plan key, in the data dir the served process opens.
  const server = await startTestServer({ dataDir: dir });
  key = server.key;
  await server.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const refused = (url: string): Promise<boolean> =>
  fetch(url, { headers: { connection: "close" } }).then(
    () => false,
    () => true,
  );

/** A client's own TCP connection: what it writes, and everything the server sent once the server closes it. */
async function rawConnection(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk.toString("utf8")));
  const closed = new Promise<string>((resolve) => socket.once("close", () => resolve(received)));
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return { socket, closed };
}

/** The HTTP/1.1 responses a connection received, in order: each status and body (sized or chunked). */
function parseResponses(raw: string): Array<{ status: number; body: string }> {
  const responses: Array<{ status: number; body: string }> = [];
  let rest = raw;
  while (rest.length > 0) {
    const headEnd = rest.indexOf("\r\n\r\n");
    if (headEnd < 0) throw new Error(`an incomplete response: ${rest.slice(0, 200)}`);
    const head = rest.slice(0, headEnd).toLowerCase();
    const status = Number(/^http\/1\.1 (\d{3})/.exec(head)?.[1]);
    rest = rest.slice(headEnd + 4);
    const length = /\r\ncontent-length: (\d+)/.exec(head)?.[1];
    let body = "";
    if (length !== undefined) {
      body = rest.slice(0, Number(length));
      rest = rest.slice(Number(length));
    } else if (head.includes("\r\ntransfer-encoding: chunked")) {
      for (;;) {
        const lineEnd = rest.indexOf("\r\n");
        const size = parseInt(rest.slice(0, lineEnd), 16);
        rest = rest.slice(lineEnd + 2);
        body += rest.slice(0, size);
        rest = rest.slice(size + 2);
        if (size === 0) break;
      }
    }
    responses.push({ status, body });
  }
  return responses;
}

describe("SIGTERM to newsindex serve", () => {
  it("fails /ready with draining, answers calls under way and arriving, then exits 0", async () => {
    const port = await freePort();
    const opsPort = await freePort();
    const cli = spawnCli(["serve", "--data-dir", dir, "--port", String(port)], {
      NEWSINDEX_CONSOLE_PORT: String(opsPort),
      // The product's default notice, long enough for the checks below to run inside it.
      NEWSINDEX_DRAIN_SECONDS: "7",
    });
    const origin = `http://127.0.0.1:${port}`;
    const ready = `http://127.0.0.1:${opsPort}/ready`;
    const headers = { "x-api-key": key };
    try {
      await waitUntil(
        () =>
          fetch(ready).then(
            (r) => r.status === 200,
            () => false,
          ),
        {
          timeoutMs: 60_000,
          everyMs: 100,
          alive: () => cli.child.exitCode === null,
          describe: () => `serve did not become ready:\n${cli.stderr()}`,
        },
      );

      // A call under way: its headers and half its body sent, the rest only once the server has stopped taking
      // connections (an upload is the slowest call a client can make).
      const body = JSON.stringify({ q: "police", interval_minutes: 60, label: "x".repeat(200) });
      const connection = await rawConnection(port);
      const half = Math.floor(body.length / 2);
      connection.socket.write(
        `POST /watches HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${key}\r\ncontent-type: application/json\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
      );

      cli.child.kill("SIGTERM");
      await waitUntil(
        () =>
          fetch(ready).then(
            (r) => r.status === 503,
            () => false,
          ),
        {
          timeoutMs: 5_000,
          describe: () => "readiness did not fail after SIGTERM",
        },
      );
      const readiness = await fetch(ready);
      expect(readiness.status).toBe(503);
      expect(await readiness.json()).toMatchObject({ status: "draining" });

      // While the balancer takes the replica out, a call that still reaches it is answered.
      const meanwhile = await fetch(`${origin}/search?q=police&limit=1`, { headers: { ...headers, connection: "close" } });
      expect(meanwhile.status).toBe(200);
      expect(((await meanwhile.json()) as { results: unknown[] }).results).toHaveLength(1);

      // Then it takes no new connection, but runs on: a call is under way.
      await waitUntil(() => refused(`${origin}/openapi.json`), {
        timeoutMs: 15_000,
        everyMs: 100,
        describe: () => "the API kept taking connections after the drain notice",
      });
      expect(cli.child.exitCode).toBeNull();

      // The rest of the upload, and a search sent right behind it on the same connection: both answered in full.
      connection.socket.write(
        `${body.slice(half)}GET /search?q=election&limit=2 HTTP/1.1\r\nhost: 127.0.0.1\r\nx-api-key: ${key}\r\n\r\n`,
      );
      const [created, searched, ...more] = parseResponses(await connection.closed);
      expect(created?.status).toBe(201);
      expect(JSON.parse(created?.body ?? "{}")).toMatchObject({ query: { q: "police" }, interval_minutes: 60 });
      expect(searched?.status).toBe(200);
      expect((JSON.parse(searched?.body ?? "{}") as { results?: unknown[] }).results).toHaveLength(2);
      expect(more).toEqual([]);

      expect(await cli.exited).toEqual({ code: 0, signal: null });
      expect(cli.stdout() + cli.stderr()).not.toMatch(/"level":(50|60)/);
    } finally {
      if (cli.child.exitCode === null) cli.child.kill("SIGKILL");
    }
  });
});
