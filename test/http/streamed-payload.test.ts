import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { StreamedBody } from "../../src/app/operation.js";
import { streamedPayload } from "../../src/http/streamed-payload.js";

// A streamed body (GET /export's lines) written to a real client over
// loopback, through the payload the HTTP adapter hands to the response: each
// chunk is handed back only once the response has written it, so a body that
// fills the same few buffers again sends every byte intact, and a slow client
// keeps what the server holds to a few chunks.

const CHUNK = 256 * 1024;
const CHUNKS = 48;

/** A body filling a few buffers again as they are handed back, chunk i all bytes i; what it held at most. */
function recyclingBody(): StreamedBody & { made: () => number; mostHeld: () => number } {
  const free: Uint8Array[] = [];
  let made = 0;
  let held = 0;
  let mostHeld = 0;
  async function* lines(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < CHUNKS; i++) {
      const buffer = free.pop() ?? (made++, new Uint8Array(CHUNK));
      buffer.fill(i);
      held++;
      mostHeld = Math.max(mostHeld, held);
      yield buffer;
    }
  }
  return {
    lines: lines(),
    written(chunk) {
      held--;
      free.push(chunk);
    },
    made: () => made,
    mostHeld: () => mostHeld,
  };
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function serve(body: StreamedBody): Promise<string> {
  server = createServer((_, res) => void streamedPayload(body, res).pipe(res));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Every byte received; `pauseMs` after each piece read, as a slow client. */
function receive(url: string, pauseMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const pieces: Buffer[] = [];
      res.on("data", (piece: Buffer) => {
        pieces.push(piece);
        if (pauseMs > 0) {
          res.pause();
          setTimeout(() => res.resume(), pauseMs);
        }
      });
      res.on("end", () => resolve(Buffer.concat(pieces)));
      res.on("error", reject);
    })
      .on("error", reject)
      .end();
  });
}

function expectEveryChunkIntact(received: Buffer): void {
  expect(received.length).toBe(CHUNK * CHUNKS);
  for (let i = 0; i < CHUNKS; i++) {
    const chunk = received.subarray(i * CHUNK, (i + 1) * CHUNK);
    // The first byte that is not the chunk's own: -1 when the chunk came through untouched.
    expect(
      chunk.findIndex((byte) => byte !== i),
      `chunk ${i}`,
    ).toBe(-1);
  }
}

describe("a streamed body's payload", () => {
  it("hands a chunk back only once written: buffers filled again send every byte intact", async () => {
    const body = recyclingBody();
    expectEveryChunkIntact(await receive(await serve(body), 0));
    // The buffers were filled again, not one per chunk.
    expect(body.made()).toBeLessThan(CHUNKS / 4);
  });

  it("keeps a slow client's stream to a few chunks held, and its bytes intact", async () => {
    const body = recyclingBody();
    expectEveryChunkIntact(await receive(await serve(body), 2));
    // One being written, one waiting in the payload, one just read from the body.
    expect(body.mostHeld()).toBeLessThanOrEqual(3);
    expect(body.made()).toBeLessThanOrEqual(3);
  });
});
