import { Client } from "undici";
import { summarise, type Latency } from "./measure.js";

// The mixed-load row: heavy connections loop heavy calls while one client
// browses, one request at a time, at a steady pace (a dashboard refreshing,
// not a load generator). Browsing is measured twice on the same connection:
// alone, then with the heavy load running, so its latency under load stands
// beside its idle latency. Every connection may call with a key of its own
// (a tenant of its own): a black-box server keeps each key to its plan's
// per-minute credits, and a 429 is waited out as a client would
// (`retry-after`), counted, never timed.

export interface MixedLoadPlan {
  browse: string;
  /** Heavy calls; heavy connection i starts at heavy[i] and loops over them in turn. */
  heavy: readonly string[];
  browseConnections: number;
  heavyConnections: number;
  /** A browse connection starts a call at most this often (ms), and at once when the previous answer came later. */
  browseEveryMs: number;
}

export interface BrowseFigures {
  latency: Latency;
  perSecond: number;
  /** Answers other than 200, by status. */
  failures: Record<string, number>;
}

export interface MixedLoad {
  plan: MixedLoadPlan;
  seconds: number;
  idle: BrowseFigures;
  loaded: BrowseFigures;
  /** Heavy requests answered while the browse was measured under load, per second. */
  heavyPerSecond: number;
  heavyFailures: Record<string, number>;
  /** p50 / p99 of each heavy call under load (ms), by path. */
  heavyLatency: Record<string, Latency>;
}

/** The headers connection `index` of `role` calls with (its key). */
export type HeadersOf = (role: "browse" | "heavy", index: number) => Record<string, string>;

interface Tally {
  samples: number[];
  byPath: Map<string, number[]>;
  failures: Record<string, number>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One connection calling `paths` in turn (from `first`) until `running()` turns false; the window ends when the last call does. */
async function connection(
  client: Client,
  paths: readonly string[],
  first: number,
  headers: Record<string, string>,
  everyMs: number,
  running: () => boolean,
  tally: () => Tally | undefined,
): Promise<void> {
  for (let i = first; running(); i++) {
    const path = paths[i % paths.length] as string;
    // A request counts when it starts inside the window, however long it takes.
    const into = tally();
    const t = performance.now();
    const response = await client.request({ method: "GET", path, headers });
    await response.body.text();
    const took = performance.now() - t;
    if (into) {
      if (response.statusCode === 200) {
        into.samples.push(took);
        let samples = into.byPath.get(path);
        if (!samples) into.byPath.set(path, (samples = []));
        samples.push(took);
      } else into.failures[response.statusCode] = (into.failures[response.statusCode] ?? 0) + 1;
    }
    if (response.statusCode === 429) await sleep(Number(response.headers["retry-after"] ?? 1) * 1000);
    else if (took < everyMs) await sleep(everyMs - took);
  }
}

/** A browse measurement runs for `seconds` and until it has this many answers (a blocked server answers few), */
const MIN_SAMPLES = 20;
/** but no longer than this. */
const MAX_SECONDS = 60;

/** Browses for `seconds` (longer if answers are few) on the plan's browse connections, after a short warm-up. */
async function browse(clients: Client[], plan: MixedLoadPlan, headersOf: HeadersOf, seconds: number): Promise<BrowseFigures> {
  const loops = startLoops(clients, [plan.browse], (i) => headersOf("browse", i), plan.browseEveryMs);
  await sleep(500);
  loops.count();
  const from = performance.now();
  const elapsed = (): number => (performance.now() - from) / 1000;
  while (elapsed() < MAX_SECONDS && (elapsed() < seconds || loops.tally.samples.length < MIN_SAMPLES)) await sleep(50);
  const { samples, failures } = await loops.stop();
  return { latency: summarise(samples), perSecond: samples.length / elapsed(), failures };
}

/** One request loop per client over `paths` (each client starting at its own path); counted once `count()` is called. */
function startLoops(
  clients: readonly Client[],
  paths: readonly string[],
  headersOf: (index: number) => Record<string, string>,
  everyMs: number,
): { tally: Tally; count(): void; stop(): Promise<Tally> } {
  const tally: Tally = { samples: [], byPath: new Map(), failures: {} };
  let counting = false;
  let running = true;
  const loops = clients.map((c, i) =>
    connection(
      c,
      paths,
      i,
      headersOf(i),
      everyMs,
      () => running,
      () => (counting ? tally : undefined),
    ),
  );
  return {
    tally,
    count: () => (counting = true),
    async stop() {
      counting = false;
      running = false;
      await Promise.all(loops);
      return tally;
    },
  };
}

/** Called as the loaded window starts and ends (e.g. to read the server's event-loop utilisation over it). */
export interface LoadedWindow {
  loadedStarts(): void;
  loadedEnds(): void;
}

export async function mixedLoad(
  origin: string,
  headersOf: HeadersOf,
  plan: MixedLoadPlan,
  seconds: number,
  window?: LoadedWindow,
): Promise<MixedLoad> {
  const open = (n: number): Client[] => Array.from({ length: n }, () => new Client(origin, { pipelining: 1 }));
  const browsers = open(plan.browseConnections);
  const heavyClients = open(plan.heavyConnections);
  try {
    const idle = await browse(browsers, plan, headersOf, seconds);
    const heavyLoops = startLoops(heavyClients, plan.heavy, (i) => headersOf("heavy", i), 0);
    // Let every heavy connection get its first query under way before the browse is measured.
    await sleep(1000);
    heavyLoops.count();
    window?.loadedStarts();
    const from = performance.now();
    const loaded = await browse(browsers, plan, headersOf, seconds);
    window?.loadedEnds();
    const heavy = await heavyLoops.stop();
    const heavySeconds = (performance.now() - from) / 1000;
    return {
      plan,
      seconds,
      idle,
      loaded,
      heavyPerSecond: heavy.samples.length / heavySeconds,
      heavyFailures: heavy.failures,
      heavyLatency: Object.fromEntries([...heavy.byPath].map(([path, samples]) => [path, summarise(samples)])),
    };
  } finally {
    await Promise.all([...browsers, ...heavyClients].map((c) => c.close()));
  }
}
