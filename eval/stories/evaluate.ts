// Story clustering quality: pairwise precision, recall and F1 of the clusters
// against the labelled set (eval/stories/labels-20230702153000.json; how it was
// labelled: eval/stories/LABELLING.md).
//   npm run eval:stories
// Clusters the real batch through the real pipeline (GKG parser, clusterer,
// SQLite story store) in file order and in shuffled orders, which must agree.

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { SqliteStoryStore } from "../../src/adapters/sqlite/story-store.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { CLUSTERING_VERSION } from "../../src/domain/stories/same-story.js";
import { StoryClusterer } from "../../src/services/stories/story-clusterer.js";

interface Labels {
  file: string;
  groups: Array<{ label: string; kind: string; ids: string[] }>;
  uncertain: Array<{ ids: string[]; note: string }>;
}

const ROOT = new URL("../../", import.meta.url).pathname;
const labelsArg = process.argv.indexOf("--labels");
const labelsPath =
  labelsArg > 0 ? (process.argv[labelsArg + 1] as string) : new URL("./labels-20230702153000.json", import.meta.url).pathname;
const labels = JSON.parse(readFileSync(labelsPath, "utf8")) as Labels;

async function readArticles(): Promise<ArticleDetail[]> {
  const source = await GkgArticleSource.create();
  const articles: ArticleDetail[] = [];
  for await (const record of source.read(join(ROOT, labels.file))) if (record.ok) articles.push(record.article);
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

function main(storyOf: Map<string, string>, articles: readonly ArticleDetail[]): void {
  const labelOf = new Map<string, number>();
  labels.groups.forEach((g, i) => g.ids.forEach((id) => labelOf.set(id, i)));
  const excluded = new Set<string>();
  for (const u of labels.uncertain) for (const a of u.ids) for (const b of u.ids) if (a !== b) excluded.add(pairKey(a, b));

  let tp = 0;
  let fp = 0;
  let fn = 0;
  const falsePairs: string[] = [];
  const missedPairs: string[] = [];
  const ids = articles.map((a) => a.id);
  const titles = new Map(articles.map((a) => [a.id, `${a.source}: ${a.title ?? ""}`]));
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as string;
      const b = ids[j] as string;
      if (excluded.has(pairKey(a, b))) continue;
      const truth = labelOf.has(a) && labelOf.get(a) === labelOf.get(b);
      const predicted = storyOf.get(a) === storyOf.get(b);
      if (truth && predicted) tp++;
      else if (predicted) {
        fp++;
        falsePairs.push(`  ${titles.get(a)}\n  ${titles.get(b)}`);
      } else if (truth) {
        fn++;
        missedPairs.push(`  ${titles.get(a)}\n  ${titles.get(b)}`);
      }
    }
  }
  const precision = tp / (tp + fp || 1);
  const recall = tp / (tp + fn || 1);
  const f1 = (2 * precision * recall) / (precision + recall || 1);
  const stories = new Set(storyOf.values()).size;
  console.log(`clustering ${CLUSTERING_VERSION} on ${labels.file}: ${articles.length} articles, ${stories} stories`);
  console.log(
    `labelled: ${labels.groups.length} groups, ${tp + fn} positive pairs; ${labels.uncertain.length} uncertain entries excluded`,
  );
  console.log(
    `pairwise precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, F1 ${f1.toFixed(3)} (tp ${tp}, fp ${fp}, fn ${fn})`,
  );
  if (process.argv.includes("--verbose")) {
    console.log("\nlabelled groups split across stories:");
    for (const group of labels.groups) {
      const sizes = new Map<string | undefined, number>();
      for (const id of group.ids) sizes.set(storyOf.get(id), (sizes.get(storyOf.get(id)) ?? 0) + 1);
      const together = [...sizes.values()].reduce((sum, n) => sum + (n * (n - 1)) / 2, 0);
      const lost = (group.ids.length * (group.ids.length - 1)) / 2 - together;
      if (sizes.size > 1)
        console.log(`  ${group.ids.length} articles in ${sizes.size} stories (${lost} pairs missed): ${group.label}`);
    }
    console.log(`\nmerged but labelled apart (${falsePairs.length}):\n${falsePairs.slice(0, 40).join("\n\n")}`);
    console.log(`\nlabelled together but apart (${missedPairs.length}):\n${missedPairs.slice(0, 60).join("\n\n")}`);
  }
}

const articles = await readArticles();
const inOrder = await cluster(articles);
for (const seed of [7, 42]) {
  const other = await cluster(shuffled(articles, seed));
  const differing = articles.filter((a) => inOrder.get(a.id) !== other.get(a.id)).length;
  console.log(
    `order independence, shuffle seed ${seed}: ${differing === 0 ? "same clusters and ids" : `${differing} articles differ`}`,
  );
  if (differing > 0) process.exitCode = 1;
}
main(inOrder, articles);
