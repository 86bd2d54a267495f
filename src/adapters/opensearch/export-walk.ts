import type { Client } from "@opensearch-project/opensearch";
import { encodeLines, type EncodedLines, type ExportView } from "../../domain/export-lines.js";
import { parseStamp, toStamp } from "../../shared/timestamps.js";
import type {
  ExportBatch,
  ExportCount,
  ExportPosition,
  ExportQuery,
  ExportStart,
  ExportWalk,
  LargeTieGroup,
} from "../../ports/article-export.js";
import type { IndexCoverage, PartitionFailure } from "../../ports/index-coverage.js";
import type { ArticleIndices } from "./article-indices.js";
import { monthTargets } from "./month-targets.js";
import { articleQuery, type Query } from "./query-dsl.js";
import { coverageOf, isUnavailable, unreadCoverage } from "./read-coverage.js";
import { search, type SearchBody, type SearchResponse } from "./search-request.js";

// The scaled shape's export walk (ports/article-export.ts): a point in time
// over the monthly indices the window picks, counted once and paged with
// `search_after` on (published_at, id), newest first, so every batch reads the
// index as it was when counted, whatever ingest writes meanwhile. Each batch
// keeps the point in time alive for another KEEP_ALIVE; `close` releases it.

const KEEP_ALIVE = "5m";
const NO_LINES: EncodedLines = { bytes: new Uint8Array(0), ends: [] };
const NEWEST_FIRST: NonNullable<SearchBody["sort"]> = [{ "indexed.stamp": "desc" }, { id: "desc" }];
/** Timestamps counted per count at most, as large tie groups (each over the limit: a few at most in practice). */
const MAX_TIE_GROUPS = 1000;

export async function openExportWalk(
  client: Client,
  indices: ArticleIndices,
  query: ExportQuery,
  tieLimit: number,
): Promise<ExportWalk> {
  const names = indices.names;
  let targets;
  try {
    targets = monthTargets(names, await indices.months(), query.filters);
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    return closedWalk(unreadCoverage([], error));
  }
  if (targets.months.length === 0) return closedWalk({ partitionsRead: [], partitionsFailed: targets.failed });
  let pit: string;
  let opened: IndexCoverage;
  try {
    const { body } = await client.createPit({
      index: targets.index.split(","),
      keep_alive: KEEP_ALIVE,
      allow_partial_pit_creation: true,
    });
    pit = body.pit_id;
    opened = coverageOf(names, targets.months, { _shards: body._shards, timed_out: false }, targets.failed);
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    return closedWalk(unreadCoverage(targets.months, error, targets.failed));
  }
  const matching = articleQuery(query.keywords, query.filters);
  const read = (body: SearchBody) => search<unknown>(client, { body: { ...body, pit: { id: pit, keep_alive: KEEP_ALIVE } } });
  let count: ExportCount;
  try {
    count = await countExport(read, matching, query.after, tieLimit, (r) =>
      merge(opened, coverageOf(names, targets.months, r, targets.failed)),
    );
  } catch (error) {
    await releasePit(client, pit);
    if (!isUnavailable(error)) throw error;
    return closedWalk(unreadCoverage(targets.months, error, targets.failed));
  }
  return new PitExportWalk(
    client,
    pit,
    read,
    matching,
    query.view,
    count,
    (r) => coverageOf(names, targets.months, r).partitionsFailed,
  );
}

class PitExportWalk implements ExportWalk {
  private open = true;

  constructor(
    private readonly client: Client,
    private readonly pit: string,
    private readonly read: (body: SearchBody) => Promise<SearchResponse<unknown>>,
    private readonly matching: Query,
    private readonly view: ExportView,
    readonly count: ExportCount,
    private readonly failuresOf: (response: SearchResponse<unknown>) => PartitionFailure[],
  ) {}

  async next(start: ExportStart | null, n: number): Promise<ExportBatch> {
    if (!this.open || n <= 0) return { rows: [], lines: NO_LINES, partitionsFailed: [] };
    const seek = start === null ? undefined : "before" in start ? [ms(start.before), ""] : [ms(start.published_at), start.id];
    let response: SearchResponse<unknown>;
    try {
      response = await this.read({
        query: this.matching,
        sort: NEWEST_FIRST,
        size: n,
        track_total_hits: false,
        _source: { excludes: ["indexed"] },
        ...(seek ? { search_after: seek } : {}),
      });
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      return { rows: [], lines: NO_LINES, partitionsFailed: unreadCoverage(this.count.partitionsRead, error).partitionsFailed };
    }
    const failed = this.failuresOf(response);
    if (failed.length > 0) return { rows: [], lines: NO_LINES, partitionsFailed: failed };
    const hits = response.hits.hits;
    return {
      rows: hits.map((hit) => ({ published_at: toStamp(hit.sort?.[0] as number), id: hit._id })),
      lines: encodeLines(
        hits.map((hit) => JSON.stringify(hit._source)),
        this.view,
      ),
      partitionsFailed: [],
    };
  }

  async close(): Promise<void> {
    if (!this.open) return;
    this.open = false;
    await releasePit(this.client, this.pit);
  }
}

/** Releases a point in time; one already gone, or a node that cannot be reached, lets it expire after KEEP_ALIVE. */
async function releasePit(client: Client, pit: string): Promise<void> {
  try {
    await client.deletePit({ body: { pit_id: [pit] } }, { ignore: [404] });
  } catch (error) {
    if (!isUnavailable(error)) throw error;
  }
}

/** Matches strictly after `after` in export order (published_at desc, then id desc). */
function afterPosition(after: ExportPosition): Query {
  return {
    bool: {
      should: [
        { range: { "indexed.stamp": { lt: after.published_at } } },
        { bool: { filter: [{ term: { "indexed.stamp": after.published_at } }, { range: { id: { lt: after.id } } }] } },
      ],
      minimum_should_match: 1,
    },
  };
}

async function countExport(
  read: (body: SearchBody) => Promise<SearchResponse<unknown>>,
  matching: Query,
  after: ExportPosition | null,
  tieLimit: number,
  coverage: (response: SearchResponse<unknown>) => IndexCoverage,
): Promise<ExportCount> {
  // Every match, and the timestamps (at or past `after`) holding more than a tie group may serve.
  const all = await read({
    query: matching,
    size: 0,
    track_total_hits: true,
    aggs: {
      ties: {
        filter: after ? { range: { "indexed.stamp": { lte: after.published_at } } } : { match_all: {} },
        aggs: {
          stamps: {
            terms: { field: "indexed.stamp", min_doc_count: tieLimit + 1, size: MAX_TIE_GROUPS, order: { _key: "desc" } },
          },
        },
      },
    },
  });
  const total = all.hits.total?.value ?? 0;
  const groups = ((all.aggregations?.ties as { stamps?: { buckets?: Array<{ key: number; doc_count: number }> } })?.stamps
    ?.buckets ?? []) as Array<{ key: number; doc_count: number }>;
  let remaining = total;
  let sentAtAfter = 0;
  if (after) {
    const left = await read({ query: { bool: { filter: [matching, afterPosition(after)] } }, size: 0, track_total_hits: true });
    remaining = left.hits.total?.value ?? 0;
    if (groups.some((g) => toStamp(g.key) === after.published_at)) {
      const sent = await read({
        query: {
          bool: {
            filter: [matching, { term: { "indexed.stamp": after.published_at } }, { range: { id: { gte: after.id } } }],
          },
        },
        size: 0,
        track_total_hits: true,
      });
      sentAtAfter = sent.hits.total?.value ?? 0;
    }
  }
  const largeTieGroups: LargeTieGroup[] = groups.map((g) => {
    const stamp = toStamp(g.key);
    return { published_at: stamp, matches: g.doc_count, sent: after && stamp === after.published_at ? sentAtAfter : 0 };
  });
  return { total, remaining, largeTieGroups, ...coverage(all) };
}

function merge(a: IndexCoverage, b: IndexCoverage): IndexCoverage {
  const failed = new Map<string, PartitionFailure>();
  for (const f of [...a.partitionsFailed, ...b.partitionsFailed]) if (!failed.has(f.partition)) failed.set(f.partition, f);
  return {
    partitionsRead: a.partitionsRead.filter((m) => !failed.has(m)),
    partitionsFailed: [...failed.values()].sort((x, y) => (x.partition < y.partition ? -1 : 1)),
  };
}

/** A walk over nothing readable: its count says why. */
function closedWalk(coverage: IndexCoverage): ExportWalk {
  return {
    count: { total: 0, remaining: 0, largeTieGroups: [], ...coverage },
    next: async () => ({ rows: [], lines: NO_LINES, partitionsFailed: [] }),
    close: async () => undefined,
  };
}

function ms(stamp: string): number {
  const value = parseStamp(stamp);
  if (value === undefined) throw new Error(`not a 14-digit timestamp: ${stamp}`);
  return value;
}
