// Probes: evidence the landed rules do not use, measured by adding the pairs
// it would join to the landed clusters (npm run eval:stories -- --probe <name>).
// They are measurements for deciding what to build, not the product's rules;
// RESULTS.md says what each one showed and why it was not adopted.

import { OnnxEmbedder } from "../../src/adapters/onnx/onnx-embedder.js";
import { SHIPPED_MODEL_DIR } from "../../src/adapters/onnx/shipped-model.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { embeddingText } from "../../src/domain/embedding-text.js";
import { STORY_WINDOW_MS } from "../../src/domain/stories/same-story.js";
import { storyFeatures, type StoryFeatures } from "../../src/domain/stories/story-features.js";

/** Pairs of article ids a probe would join. */
export type Probe = (articles: readonly ArticleDetail[]) => Promise<Array<[string, string]>>;

export const PROBES: Record<string, Probe> = {
  /** Passage embeddings (the shipped e5 model, the semantic search text) at cosine >= 0.90, and 2 names in common. */
  embeddings: async (articles) => {
    const embedder = await OnnxEmbedder.load(SHIPPED_MODEL_DIR);
    try {
      const vectors = await embedder.embed(
        articles.map((a) => embeddingText(a)),
        "passage",
      );
      return pairsWhere(articles, (a, b, i, j) => {
        if (sharedNames(a, b) < 2) return false;
        return dot(vectors[i] as Float32Array, vectors[j] as Float32Array) >= 0.9;
      });
    } finally {
      await embedder.close();
    }
  },
  // Looser settings of the stories-v4 rules (same-story.ts), to show how close each one is to a false merge.
  /** Two languages with one person in common (v4 needs two) and two names at 15% (v4: four at 30%). */
  "two-languages-one-person": async (articles) =>
    pairsWhere(articles, (a, b) => a.language !== b.language && sharedPersons(a, b) >= 1 && cast(a, b, 2, 0.15)),
  /** One shared headline word and a person both headlines name, with three names at 20% (v4: five at 30%). */
  "one-word-small-cast": async (articles) =>
    pairsWhere(articles, (a, b) => sharedTitleWords(a, b) === 1 && sharedHeadlinePersons(a, b) && cast(a, b, 3, 0.2)),
  /** One shared headline word that is part of any name in either article, a place included (v4: a person both headlines name). */
  "one-word-any-name": async (articles) =>
    pairsWhere(articles, (a, b) => sharedTitleWords(a, b) === 1 && sharesNamedWord(a, b) && cast(a, b, 5, 0.3)),
};

/** Pairs of different outlets within the story window that pass `test`. */
function pairsWhere(
  articles: readonly ArticleDetail[],
  test: (a: StoryFeatures, b: StoryFeatures, i: number, j: number) => boolean,
): Array<[string, string]> {
  const features = articles.map(storyFeatures);
  const out: Array<[string, string]> = [];
  for (let i = 0; i < features.length; i++)
    for (let j = i + 1; j < features.length; j++) {
      const a = features[i] as StoryFeatures;
      const b = features[j] as StoryFeatures;
      if (a.source === b.source || Math.abs(a.timeMs - b.timeMs) > STORY_WINDOW_MS) continue;
      if (test(a, b, i, j)) out.push([a.id, b.id]);
    }
  return out;
}

function sharedNames(a: StoryFeatures, b: StoryFeatures): number {
  return a.entities.filter((x) => b.entities.includes(x)).length + a.places.filter((x) => b.places.includes(x)).length;
}

/** At least `min` names in common, and that share of all the two articles name. */
function cast(a: StoryFeatures, b: StoryFeatures, min: number, share: number): boolean {
  const shared = sharedNames(a, b);
  const names = a.entities.length + a.places.length + b.entities.length + b.places.length - shared;
  return shared >= min && shared / names >= share;
}

function sharedPersons(a: StoryFeatures, b: StoryFeatures): number {
  return a.persons.filter((p) => b.persons.includes(p)).length;
}

function sharedHeadlinePersons(a: StoryFeatures, b: StoryFeatures): boolean {
  return a.headlinePersons.some((p) => b.headlinePersons.includes(p));
}

function sharedTitleWords(a: StoryFeatures, b: StoryFeatures): number {
  return a.titleWords.filter((w) => b.titleWords.includes(w)).length;
}

function sharesNamedWord(a: StoryFeatures, b: StoryFeatures): boolean {
  return a.titleWords.some((w) => b.titleWords.includes(w) && (a.nameWords.includes(w) || b.nameWords.includes(w)));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
