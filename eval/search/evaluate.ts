// Search relevance: nDCG@10 per kind of need for keyword, semantic and hybrid
// ranking, on the judged set (judged-set.ts, method in JUDGING.md), over the
// whole bundled sample served by a real server and embedded with the model.
//   npm run eval:search [-- --model DIR] [-- --verbose]
// DIR is another model directory of the shipped format (as
// NEWSINDEX_EMBEDDING_MODEL_DIR), to compare models on the same judgments.

import { json, startTestServer, type TestServer } from "../../test/support/test-server.js";
import { JUDGED_QUERIES, type JudgedArticle, type JudgedQuery, type Kind } from "./judged-set.js";
import { byHalf, scoreSeeds, similarTable, verboseLines, type SimilarRanking } from "./similar-eval.js";
import { SIMILAR_SEEDS, TOPICS } from "./similar-set.js";

const MODES = ["keyword", "semantic", "hybrid"] as const;
const KINDS: Kind[] = ["keyword", "paraphrase", "entity", "cross_lingual"];
const K = 10;
const VERBOSE = process.argv.includes("--verbose");
const modelArg = process.argv.indexOf("--model");
const MODEL_DIR = modelArg > 0 ? process.argv[modelArg + 1] : undefined;

async function everyArticle(server: TestServer): Promise<JudgedArticle[]> {
  const out: JudgedArticle[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await json<{ results: JudgedArticle[]; has_more: boolean }>(
      await server.get(`/search?limit=100&offset=${offset}`),
    );
    out.push(...page.results);
    if (!page.has_more) return out;
  }
}

/** nDCG@K with gains 2^grade - 1; the ideal ranking is over every article of the sample. */
export function ndcg(ranked: readonly number[], allGrades: readonly number[]): number {
  const dcg = (grades: readonly number[]): number =>
    grades.slice(0, K).reduce((sum, g, i) => sum + (2 ** g - 1) / Math.log2(i + 2), 0);
  const ideal = dcg([...allGrades].sort((a, b) => b - a));
  return ideal === 0 ? 0 : dcg(ranked) / ideal;
}

async function main(): Promise<void> {
  const started = Date.now();
  const server = await startTestServer({ embed: true, ...(MODEL_DIR ? { config: { embeddingModelDir: MODEL_DIR } } : {}) });
  try {
    const articles = await everyArticle(server);
    const byId = new Map(articles.map((a) => [a.id, a]));
    console.log(
      `${articles.length} articles, embedded with ${server.container.embedder.model} in ${((Date.now() - started) / 1000).toFixed(0)} s (with ingest)`,
    );
    const scores: Record<string, Record<Kind, number[]>> = {};
    for (const mode of MODES) {
      scores[mode] = { keyword: [], paraphrase: [], entity: [], cross_lingual: [] };
      for (const query of JUDGED_QUERIES) {
        const value = await score(server, query, mode, articles, byId);
        scores[mode]?.[query.kind].push(value);
      }
    }
    const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
    console.log(`\n| ranking | overall | ${KINDS.join(" | ")} |\n|---|---|${KINDS.map(() => "---").join("|")}|`);
    for (const mode of MODES) {
      const perKind = KINDS.map((k) => mean(scores[mode]?.[k] ?? []));
      const overall = mean(KINDS.flatMap((k) => scores[mode]?.[k] ?? []));
      console.log(`| ${mode} | ${overall.toFixed(2)} | ${perKind.map((v) => v.toFixed(2)).join(" | ")} |`);
    }
    console.log(
      `\n${JUDGED_QUERIES.length} queries (${KINDS.map((k) => `${JUDGED_QUERIES.filter((q) => q.kind === k).length} ${k}`).join(", ")}); nDCG@${K}.`,
    );
    await similarReport(server, articles);
  } finally {
    await server.close();
  }
}

/** /similar's topical precision on its judged set (similar-set.ts), as served over HTTP. */
async function similarReport(server: TestServer, articles: readonly JudgedArticle[]): Promise<void> {
  const stories = new Map(articles.map((a) => [a.id, (a as JudgedArticle & { story_id: string | null }).story_id ?? a.id]));
  const unknown = [...SIMILAR_SEEDS.map((s) => s.id), ...Object.values(TOPICS).flatMap((t) => t.ids)].filter(
    (id) => !stories.has(id),
  );
  if (unknown.length > 0) throw new Error(`ids judged but not in the sample: ${unknown.join(", ")}`);
  const storyOf = (id: string): string => stories.get(id) ?? id;
  const served: SimilarRanking = async (id) =>
    (
      await json<{ results: Array<{ id: string }> }>(await server.get(`/similar/${encodeURIComponent(id)}?limit=10&view=compact`))
    ).results.map((r) => r.id);
  const scores = await scoreSeeds(served, storyOf);
  if (VERBOSE) console.log(verboseLines("served", scores).join("\n"));
  console.log(`\n${similarTable([{ name: "served", figures: byHalf(scores) }])}`);
}

async function score(
  server: TestServer,
  query: JudgedQuery,
  mode: (typeof MODES)[number],
  articles: readonly JudgedArticle[],
  byId: Map<string, JudgedArticle>,
): Promise<number> {
  const body = await json<{ results: Array<{ id: string }> }>(
    await server.get(`/search?q=${encodeURIComponent(query.q)}&mode=${mode}&limit=${K}&view=compact`),
  );
  const ranked = body.results.map((r) => {
    const article = byId.get(r.id);
    return article ? query.grade(article) : 0;
  });
  const value = ndcg(
    ranked,
    articles.map((a) => query.grade(a)),
  );
  if (VERBOSE) {
    const relevant = articles.filter((a) => query.grade(a) > 0).length;
    console.log(`${mode.padEnd(8)} ${query.kind.padEnd(13)} ${value.toFixed(2)}  (${relevant} judged relevant) ${query.q}`);
  }
  return value;
}

await main();
