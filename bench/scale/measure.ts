import { cpus, loadavg, totalmem } from "node:os";
import autocannon from "autocannon";
import { Client } from "undici";

// Timing helpers for the scale benchmark: precise single-client latency
// (performance.now around each call) and throughput under load (autocannon).

export interface Latency {
  p50: number;
  p99: number;
  mean: number;
  samples: number;
}

export function summarise(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    p50: at(0.5),
    p99: at(0.99),
    mean: sorted.reduce((s, v) => s + v, 0) / Math.max(1, sorted.length),
    samples: sorted.length,
  };
}

/** Runs `fn` repeatedly for about `seconds` (after a short warm-up) and times each call in ms. */
export async function timeCalls(fn: () => Promise<unknown> | unknown, seconds: number): Promise<Latency> {
  for (let i = 0; i < 5; i++) await fn();
  const samples: number[] = [];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return summarise(samples);
}

/** One keep-alive client, one request at a time: the latency a single caller sees, body read included. */
export async function timeHttp(origin: string, path: string, headers: Record<string, string>, seconds: number): Promise<Latency> {
  const client = new Client(origin, { pipelining: 1 });
  try {
    return await timeCalls(async () => {
      const response = await client.request({ method: "GET", path, headers });
      const text = await response.body.text();
      if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${text.slice(0, 200)}`);
    }, seconds);
  } finally {
    await client.close();
  }
}

export interface Throughput {
  requestsPerSecond: number;
  /** autocannon's histogram keeps whole milliseconds. */
  p50: number;
  p99: number;
}

/** autocannon on one URL; with `jsonBody`, every request is a POST of it (an OpenSearch `_search`). */
export async function load(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  jsonBody?: string,
): Promise<Throughput> {
  const request =
    jsonBody === undefined
      ? { headers }
      : { headers: { ...headers, "content-type": "application/json" }, method: "POST" as const, body: jsonBody };
  const result = await autocannon({ url, connections, duration: seconds, ...request });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

export function machine(): string {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  return `${cpus().length} cores (${cpu}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}, ${process.platform}/${process.arch}`;
}

export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ");
}

/**
 * Times two calls taking turns (a, b, a, b, ...) for about `seconds` after a warm-up of about a second, so both
 * see the same machine at the same moments; each one's latency in ms.
 */
export async function timeAlternating(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  seconds: number,
): Promise<[Latency, Latency]> {
  const warm = performance.now() + 1000;
  while (performance.now() < warm) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    let t = performance.now();
    await a();
    samples[0].push(performance.now() - t);
    t = performance.now();
    await b();
    samples[1].push(performance.now() - t);
  }
  return [summarise(samples[0]), summarise(samples[1])];
}
