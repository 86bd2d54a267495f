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
  /** One shared headline word that is part of a name, and the same cast: 4 names in common, 30% of them. */
  "named-cast": async (articles) =>
    pairsWhere(articles, (a, b) => {
      const named = a.titleWords.some((w) => b.titleWords.includes(w) && (a.nameWords.includes(w) || b.nameWords.includes(w)));
      const shared = sharedNames(a, b);
      const names = a.entities.length + a.places.length + b.entities.length + b.places.length - shared;
      return named && shared >= 4 && shared / names >= 0.3;
    }),
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

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}
