import { createHash } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { createInterface } from "node:readline";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Agent, request, type Dispatcher } from "undici";
import type { Download, FeedSource } from "../../ports/feed-source.js";

// GDELT's feed over HTTP with undici: a connect, headers and body timeout on every request, and a few retries
// with backoff for what a retry can fix (a dropped connection, a timeout, a 5xx). A 404 is an answer, not a
// failure: a listed file can be late. Files stream to disk through an md5; nothing is held whole in memory.

export const GDELT_BASE = "http://data.gdeltproject.org/gdeltv2/";

export interface FeedClientOptions {
  /** Tries per request, the first included. */
  tries?: number;
  /** Wait before the second try; doubled before each next one. */
  backoffMs?: number;
  /** Connecting and waiting for the headers, each. */
  headersTimeoutMs?: number;
  /** Longest silence inside a body. */
  bodyTimeoutMs?: number;
}

class RetryableStatus extends Error {}

export class FeedClient implements FeedSource {
  readonly base: string;
  private readonly agent: Agent;
  private readonly tries: number;
  private readonly backoffMs: number;

  constructor(base: string = GDELT_BASE, options: FeedClientOptions = {}) {
    this.base = base.endsWith("/") ? base : `${base}/`;
    this.tries = options.tries ?? 3;
    this.backoffMs = options.backoffMs ?? 500;
    this.agent = new Agent({
      connectTimeout: options.headersTimeoutMs ?? 15_000,
      headersTimeout: options.headersTimeoutMs ?? 15_000,
      bodyTimeout: options.bodyTimeoutMs ?? 30_000,
    });
  }

  async *lines(name: string): AsyncIterable<string> {
    const url = new URL(name, this.base).href;
    const body = await this.withRetries(url, async () => {
      const response = await this.get(url);
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw statusError(url, response.statusCode);
      }
      return response.body;
    });
    // A list is read once, line by line; a body cut short throws here, and the caller keeps what it had not recorded.
    yield* createInterface({ input: body, crlfDelay: Infinity });
  }

  async download(name: string, dest: string, maxBytes: number): Promise<Download> {
    const url = new URL(name, this.base).href;
    return this.withRetries(url, async () => {
      const response = await this.get(url);
      if (response.statusCode === 404) {
        await response.body.dump();
        return { found: false, status: 404 };
      }
      if (response.statusCode !== 200) {
        await response.body.dump();
        throw statusError(url, response.statusCode);
      }
      const hash = createHash("md5");
      let bytes = 0;
      const measure = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          // Past the listed size it cannot match: stop reading, the follower refuses it.
          if (bytes > maxBytes) return done(new TooLarge());
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(response.body, measure, createWriteStream(dest));
      } catch (error) {
        if (error instanceof TooLarge) return { found: true, bytes, md5: "" };
        await rm(dest, { force: true });
        throw error;
      }
      return { found: true, bytes, md5: hash.digest("hex") };
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private get(url: string): Promise<Dispatcher.ResponseData> {
    return request(url, { dispatcher: this.agent, method: "GET" });
  }

  private async withRetries<T>(url: string, attempt: () => Promise<T>): Promise<T> {
    let wait = this.backoffMs;
    for (let tried = 1; ; tried++) {
      try {
        return await attempt();
      } catch (error) {
        const retryable = error instanceof RetryableStatus || !(error instanceof HttpStatusError);
        if (!retryable || tried >= this.tries) throw describe(url, error);
        await new Promise((resolve) => setTimeout(resolve, wait));
        wait *= 2;
      }
    }
  }
}

class TooLarge extends Error {}

class HttpStatusError extends Error {}

function statusError(url: string, status: number): Error {
  return status >= 500 || status === 429
    ? new RetryableStatus(`${url}: HTTP ${status}`)
    : new HttpStatusError(`${url}: HTTP ${status}`);
}

function describe(url: string, error: unknown): Error {
  if (error instanceof RetryableStatus || error instanceof HttpStatusError) return new Error(error.message);
  const code = error instanceof Error && "code" in error ? ` (${String(error.code)})` : "";
  return new Error(`${url}: ${error instanceof Error ? error.message : String(error)}${code}`);
}
