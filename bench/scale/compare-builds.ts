// Two builds' search engines on one index, in one process, taking turns: the
// same queries through each build's IndexBackend.search (every thread its
// own), their top 10 and facets compared, then their latency alternated
// (a, b, b, a, ...), median of --rounds each, so both see the same machine.
//
//   git archive <commit> src bench package.json | tar -x -C /tmp/before && ln -s "$PWD/node_modules" /tmp/before/
//   node --import tsx bench/scale/compare-builds.ts --data DIR --before /tmp/before --after . \
//     --q "baltimore shooting" --p '{"q":"baltimore shooting","facets":"source,person,topic"}'

import { resolve } from "node:path";
import { parseArgs } from "node:util";
import type { ArticleQuery } from "../../src/domain/search-query.js";
import type { SearchResult } from "../../src/ports/article-search.js";

const { values: args } = parseArgs({
  options: {
    data: { type: "string" },
    before: { type: "string" },
    after: { type: "string", default: "." },
    rounds: { type: "string", default: "15" },
    q: { type: "string", multiple: true },
    p: { type: "string", multiple: true },
  },
});
if (args.data === undefined || args.before === undefined) throw new Error("--data DIR and --before DIR are required");

interface Build {
  search(query: ArticleQuery): Promise<SearchResult>;
  close(): Promise<void>;
  engineQuery(params: Record<string, string>): ArticleQuery;
}

async function build(root: string, data: string): Promise<Build> {
  const backendModule = (await import(resolve(root, "src/adapters/sqlite/sqlite-index-backend.ts"))) as {
    SqliteIndexBackend: new (dir: string) => { search: Build["search"]; close: Build["close"]; start(): Promise<void> };
  };
  const mix = (await import(resolve(root, "bench/scale/query-mix.ts"))) as { engineQuery: Build["engineQuery"] };
  const backend = new backendModule.SqliteIndexBackend(data);
  await backend.start();
  return { search: (q) => backend.search(q), close: () => backend.close(), engineQuery: mix.engineQuery };
}

const median = (times: number[]): number => times.sort((x, y) => x - y)[Math.floor(times.length / 2)] as number;
const before = await build(args.before, args.data);
const after = await build(args.after, args.data);
const queries: Array<Record<string, string>> = [
  ...(args.q ?? []).map((q) => ({ q })),
  ...(args.p ?? []).map((p) => JSON.parse(p) as Record<string, string>),
];
try {
  for (const params of queries) {
    const [qb, qa] = [before.engineQuery(params), after.engineQuery(params)] as [ArticleQuery, ArticleQuery];
    const [rb, ra] = [await before.search(qb), await after.search(qa)];
    const ids = (r: SearchResult): string[] => r.hits.map((h) => h.article.id);
    const overlap = ids(rb).filter((id) => ids(ra).includes(id)).length;
    const scoreDiff = Math.max(0, ...rb.hits.map((h, i) => Math.abs((h.score ?? 0) - (ra.hits[i]?.score ?? 0))));
    const times: [number[], number[]] = [[], []];
    for (let round = 0; round < Number(args.rounds); round++) {
      for (const which of round % 2 === 0 ? [0, 1] : [1, 0]) {
        const start = performance.now();
        await (which === 0 ? before.search(qb) : after.search(qa));
        times[which]?.push(performance.now() - start);
      }
    }
    const [b, a] = [median(times[0]), median(times[1])];
    console.log(
      `${JSON.stringify(params)}: total ${rb.total} / ${ra.total}; top 10 shared ${overlap}, same order ${String(ids(rb).join() === ids(ra).join())}, largest score difference ${scoreDiff}, facets equal ${String(JSON.stringify(rb.facets ?? null) === JSON.stringify(ra.facets ?? null))}; p50 before ${b.toFixed(2)} ms, after ${a.toFixed(2)} ms (${(a / b).toFixed(2)}x)`,
    );
  }
} finally {
  await before.close();
  await after.close();
}
