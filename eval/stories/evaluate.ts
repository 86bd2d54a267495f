// Story clustering quality: pairwise precision, recall and F1 of the clusters
// against each labelled set (how they were labelled: eval/stories/LABELLING.md
// and LABELLING-second.md).
//   npm run eval:stories [-- --verbose] [-- --labels eval/stories/labels-<batch>.json] [-- --probe <name>]
// `--probe` (probes.ts) adds the pairs a probe would join to the clusters before scoring them.
// Clusters each real file through the real pipeline (GKG parser, clusterer,
// SQLite story store) in file order and in shuffled orders, which must agree.
// A set of several files sums their pairs: pairs across files are never
// labelled together, and are too far apart in time to be clustered together.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { SqliteStoryStore } from "../../src/adapters/sqlite/story-store.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { CLUSTERING_VERSION } from "../../src/domain/stories/same-story.js";
import { StoryClusterer } from "../../src/usecases/stories/story-clusterer.js";
import { PROBES, type Probe } from "./probes.js";

interface Labels {
  file: string;
  groups: Array<{ label: string; kind: string; ids: string[] }>;
  uncertain: Array<{ ids: string[]; note: string }>;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  positives: number;
  /** Uncertain pairs (left out of the figures) clustered together, and how many there are. */
  uncertainMerged: number;
  uncertain: number;
}

const ROOT = new URL("../../", import.meta.url).pathname;
const HERE = new URL(".//", import.meta.url).pathname;
const VERBOSE = process.argv.includes("--verbose");
const probeArg = process.argv.indexOf("--probe");
const probeName = probeArg > 0 ? (process.argv[probeArg + 1] ?? "") : undefined;
const PROBE: Probe | undefined = probeName === undefined ? undefined : PROBES[probeName];
if (probeName !== undefined && PROBE === undefined) {
  console.error(`unknown probe '${probeName}'; probes: ${Object.keys(PROBES).join(", ")}`);
  process.exit(2);
}

const SETS: Array<{ name: string; labels: string[] }> = [
  { name: "2023-07-02 15:30 (the rules were tuned on it)", labels: ["labels-20230702153000.json"] },
  {
    name: "second set (never tuned on)",
    labels: [
      "labels-20160101020000.json",
      "labels-20200222.json",
      "labels-20150218-20200318.json",
      "labels-20150218-20200318-translingual.json",
    ],
  },
];

async function readArticles(file: string): Promise<ArticleDetail[]> {
  const source = await GkgArticleSource.create();
  const articles: ArticleDetail[] = [];
  for await (const record of source.read(join(ROOT, file))) if (record.ok) articles.push(record.article);
  return articles;
}

/** Story id of every article, clustering them in the given order. */
async function cluster(articles: readonly ArticleDetail[]): Promise<Map<string, string>> {
  const dir = mkdtempSync(join(tmpdir(), "newsindex-stories-"));
  const store = new SqliteStoryStore(join(dir, "stories.db"));
  const clusterer = new StoryClusterer(store);
  for (const article of articles) await clusterer.add(article);
  const storyOf = new Map<string, string>();
  for (const article of articles) storyOf.set(article.id, await store.storyOf(article.id));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return storyOf;
}

/** Joins the stories of each pair (the clusters then are the components of both). */
function joinPairs(storyOf: Map<string, string>, pairs: ReadonlyArray<[string, string]>): void {
  const parent = new Map<string, string>();
  const find = (s: string): string => {
    const p = parent.get(s);
    if (p === undefined || p === s) return s;
    const root = find(p);
    parent.set(s, root);
    return root;
  };
  for (const [a, b] of pairs) {
    const ra = find(storyOf.get(a) as string);
    const rb = find(storyOf.get(b) as string);
    if (ra !== rb) parent.set(ra > rb ? ra : rb, ra > rb ? rb : ra);
  }
  for (const [id, story] of storyOf) storyOf.set(id, find(story));
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function pairKey(a: string, b: string): string {
  return a < b ? `${a} ${b}` : `${b} ${a}`;
}

function score(labels: Labels, storyOf: Map<string, string>, articles: readonly ArticleDetail[]): Counts {
  const labelOf = new Map<string, number>();
  labels.groups.forEach((g, i) => g.ids.forEach((id) => labelOf.set(id, i)));
  const excluded = new Set<string>();
  for (const u of labels.uncertain) for (const a of u.ids) for (const b of u.ids) if (a !== b) excluded.add(pairKey(a, b));

  const counts: Counts = { tp: 0, fp: 0, fn: 0, positives: 0, uncertainMerged: 0, uncertain: 0 };
  const falsePairs: string[] = [];
  const missedPairs: string[] = [];
  const ids = articles.map((a) => a.id);
  const titles = new Map(articles.map((a) => [a.id, `${a.id} ${a.source}: ${a.title ?? a.url ?? ""}`]));
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as string;
      const b = ids[j] as string;
      if (excluded.has(pairKey(a, b))) {
        counts.uncertain++;
        if (storyOf.get(a) === storyOf.get(b)) counts.uncertainMerged++;
        continue;
      }
      const truth = labelOf.has(a) && labelOf.get(a) === labelOf.get(b);
      const predicted = storyOf.get(a) === storyOf.get(b);
      if (truth) counts.positives++;
      if (truth && predicted) counts.tp++;
      else if (predicted) {
        counts.fp++;
        falsePairs.push(`  ${titles.get(a)}\n  ${titles.get(b)}`);
      } else if (truth) {
        counts.fn++;
        missedPairs.push(`  ${titles.get(a)}\n  ${titles.get(b)}`);
      }
    }
  }
  if (VERBOSE) {
    for (const group of labels.groups) {
      const sizes = new Map<string | undefined, number>();
      for (const id of group.ids) sizes.set(storyOf.get(id), (sizes.get(storyOf.get(id)) ?? 0) + 1);
      const together = [...sizes.values()].reduce((sum, n) => sum + (n * (n - 1)) / 2, 0);
      const lost = (group.ids.length * (group.ids.length - 1)) / 2 - together;
      if (sizes.size > 1)
        console.log(`    split: ${group.ids.length} articles in ${sizes.size} stories (${lost} pairs missed): ${group.label}`);
    }
    console.log(`    merged but labelled apart (${falsePairs.length}):\n${falsePairs.slice(0, 40).join("\n\n")}`);
    console.log(`    labelled together but apart (${missedPairs.length}):\n${missedPairs.slice(0, 60).join("\n\n")}`);
  }
  return counts;
}

function figures(c: Counts): string {
  // With no pair merged (or none labelled together) a ratio has nothing to measure: said so, not printed as 1 or 0.
  const precision = c.tp + c.fp === 0 ? undefined : c.tp / (c.tp + c.fp);
  const recall = c.positives === 0 ? undefined : c.tp / c.positives;
  const f1 = precision === undefined || recall === undefined ? undefined : (2 * precision * recall) / (precision + recall || 1);
  const show = (x: number | undefined): string => (x === undefined ? "n/a" : x.toFixed(3));
  return (
    `precision ${show(precision)}, recall ${show(recall)}, F1 ${show(f1)} (tp ${c.tp}, fp ${c.fp}, fn ${c.fn}; ` +
    `uncertain pairs together ${c.uncertainMerged} of ${c.uncertain})`
  );
}

/** Clusters one labelled file (in order and shuffled) and scores it. */
async function evaluate(labelsPath: string): Promise<Counts> {
  const labels = JSON.parse(readFileSync(labelsPath, "utf8")) as Labels;
  const articles = await readArticles(labels.file);
  const inOrder = await cluster(articles);
  if (PROBE) joinPairs(inOrder, await PROBE(articles));
  const orderNotes: string[] = [];
  for (const seed of [7, 42]) {
    const other = await cluster(shuffled(articles, seed));
    const differing = articles.filter((a) => inOrder.get(a.id) !== other.get(a.id)).length;
    if (differing > 0) {
      orderNotes.push(`shuffle seed ${seed}: ${differing} articles differ`);
      process.exitCode = 1;
    }
  }
  const stories = new Set(inOrder.values()).size;
  console.log(`  ${labels.file}: ${articles.length} articles, ${stories} stories; ${labels.groups.length} labelled groups`);
  const counts = score(labels, inOrder, articles);
  console.log(
    `    ${figures(counts)}; order independence: ${orderNotes.length === 0 ? "same clusters and ids" : orderNotes.join(", ")}`,
  );
  return counts;
}

const labelsArg = process.argv.indexOf("--labels");
const sets = labelsArg > 0 ? [{ name: "one file", labels: [process.argv[labelsArg + 1] as string] }] : SETS;
console.log(
  `clustering ${CLUSTERING_VERSION}${probeName === undefined ? "" : `, with the pairs of probe '${probeName}' joined`}`,
);
for (const set of sets) {
  console.log(`\n${set.name}:`);
  const total: Counts = { tp: 0, fp: 0, fn: 0, positives: 0, uncertainMerged: 0, uncertain: 0 };
  for (const file of set.labels) {
    const c = await evaluate(labelsArg > 0 ? file : join(HERE, file));
    for (const key of Object.keys(total) as Array<keyof Counts>) total[key] += c[key];
  }
  console.log(`  ${set.name}: pairwise ${figures(total)}`);
}
