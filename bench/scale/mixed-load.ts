import { Client } from "undici";
import { summarise, type Latency } from "./measure.js";

// The mixed-load row: a few connections browse while others run heavy queries
// (facets, a story listing by size, a broad keyword search). Browsing is
// measured twice on the same connections: alone, then with the heavy load
// running, so its latency under load stands beside its idle latency.

export interface MixedLoadPlan {
  browse: string;
  heavy: readonly string[];
  browseConnections: number;
  heavyConnections: number;
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
}

interface Tally {
  samples: number[];
  failures: Record<string, number>;
}

/** One connection calling `paths` in turn (from `first`) until `running()` turns false; the window ends when the last call does. */
async function connection(
  client: Client,
  paths: readonly string[],
  first: number,
  headers: Record<string, string>,
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
    if (!into) continue;
    if (response.statusCode === 200) into.samples.push(performance.now() - t);
    else into.failures[response.statusCode] = (into.failures[response.statusCode] ?? 0) + 1;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A browse measurement runs for `seconds` and until it has this many answers (a blocked server answers few), */
const MIN_SAMPLES = 20;
/** but no longer than this. */
const MAX_SECONDS = 60;

/** Browses for `seconds` (longer if answers are few) on the plan's browse connections, after a short warm-up. */
async function browse(
  clients: Client[],
  plan: MixedLoadPlan,
  headers: Record<string, string>,
  seconds: number,
): Promise<BrowseFigures> {
  const loops = startLoops(clients, [plan.browse], headers);
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
  headers: Record<string, string>,
): { tally: Tally; count(): void; stop(): Promise<Tally> } {
  const tally: Tally = { samples: [], failures: {} };
  let counting = false;
  let running = true;
  const loops = clients.map((c, i) =>
    connection(
      c,
      paths,
      i,
      headers,
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

export async function mixedLoad(
  origin: string,
  headers: Record<string, string>,
  plan: MixedLoadPlan,
  seconds: number,
): Promise<MixedLoad> {
  const open = (n: number): Client[] => Array.from({ length: n }, () => new Client(origin, { pipelining: 1 }));
  const browsers = open(plan.browseConnections);
  const heavyClients = open(plan.heavyConnections);
  try {
    const idle = await browse(browsers, plan, headers, seconds);
    const heavyLoops = startLoops(heavyClients, plan.heavy, headers);
    // Let every heavy connection get its first query under way before the browse is measured.
    await sleep(1000);
    heavyLoops.count();
    const from = performance.now();
    const loaded = await browse(browsers, plan, headers, seconds);
    const heavy = await heavyLoops.stop();
    const heavySeconds = (performance.now() - from) / 1000;
    return {
      plan,
      seconds,
      idle,
      loaded,
      heavyPerSecond: heavy.samples.length / heavySeconds,
      heavyFailures: heavy.failures,
    };
  } finally {
    await Promise.all([...browsers, ...heavyClients].map((c) => c.close()));
  }
}
