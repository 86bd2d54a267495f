// /similar's topical precision on its judged set (similar-set.ts, rules in
// SIMILAR-JUDGING.md): per seed, the share of the top min(5, available)
// results judged on the seed's topic, where `available` counts the stories
// of the sample on that topic other than the seed's own; reported per half
// as the mean over seeds and the worst seed.

import { SIMILAR_SEEDS, onTopic, TOPICS, type Half, type SimilarSeed } from "./similar-set.js";

export const TOP = 5;

/** A ranking under test: the ids /similar (or a variant of its scoring) returns for a seed, best first. */
export type SimilarRanking = (seedId: string) => Promise<string[]>;

export interface SeedScore {
  seed: SimilarSeed;
  hits: number;
  of: number;
  precision: number;
}

/** Every article's story, to count the stories on a topic. */
export type StoryOf = (articleId: string) => string;

export async function scoreSeeds(rank: SimilarRanking, storyOf: StoryOf, seeds = SIMILAR_SEEDS): Promise<SeedScore[]> {
  const out: SeedScore[] = [];
  for (const seed of seeds) {
    const own = storyOf(seed.id);
    const stories = new Set(TOPICS[seed.topic].ids.map(storyOf).filter((s) => s !== own));
    const of = Math.min(TOP, stories.size);
    const ranked = (await rank(seed.id)).slice(0, of);
    const hits = ranked.filter((id) => onTopic(seed, id)).length;
    out.push({ seed, hits, of, precision: of === 0 ? 1 : hits / of });
  }
  return out;
}

export interface HalfFigure {
  half: Half;
  seeds: number;
  mean: number;
  worst: SeedScore;
}

export function byHalf(scores: readonly SeedScore[]): HalfFigure[] {
  const halves: Half[] = ["tuning", "held_out", "batch_2023"];
  return halves.flatMap((half) => {
    const mine = scores.filter((s) => s.seed.half === half);
    const worst = [...mine].sort((a, b) => a.precision - b.precision)[0];
    if (worst === undefined) return [];
    return [{ half, seeds: mine.length, mean: mine.reduce((sum, s) => sum + s.precision, 0) / mine.length, worst }];
  });
}

const HALF_NAMES: Record<Half, string> = {
  tuning: "chosen on (tuning seeds)",
  held_out: "held out",
  batch_2023: "2023-07-02 batch seeds",
};

/** A markdown table: one row per ranking and half. */
export function similarTable(rows: ReadonlyArray<{ name: string; figures: HalfFigure[] }>): string {
  const lines = [`| /similar ranking | seeds | topical precision (top ${TOP}) | worst seed |`, "|---|---|---|---|"];
  for (const row of rows) {
    for (const f of row.figures) {
      lines.push(
        `| ${row.name} | ${HALF_NAMES[f.half]} (${f.seeds}) | ${f.mean.toFixed(2)} | ${f.worst.hits} of ${f.worst.of}: ${f.worst.seed.title} |`,
      );
    }
  }
  return lines.join("\n");
}

export function verboseLines(name: string, scores: readonly SeedScore[]): string[] {
  return scores.map(
    (s) => `${name.padEnd(8)} ${s.seed.half.padEnd(10)} ${s.hits}/${s.of}  ${s.seed.topic.padEnd(20)} ${s.seed.title}`,
  );
}
