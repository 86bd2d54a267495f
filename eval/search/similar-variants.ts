// Rankings of /similar other than the served one, scored on the judged set (similar-set.ts) in memory over the
// sample (similar-sample.ts), so many can be compared in one run. The figures are in RESULTS.md ("/similar"); the
// rankings (served, centred, fused) are described in similar-rankings.ts.
//   node --import tsx eval/search/similar-variants.ts            the named rankings, every half (--verbose: per seed)
//   node --import tsx eval/search/similar-variants.ts --grid     the grid, on the tuning seeds only

import {
  byHalf,
  scoreSeeds,
  similarTable,
  verboseLines,
  type HalfFigure,
  type SeedScore,
  type SimilarRanking,
} from "./similar-eval.js";
import { rankingsOver, type Centre, type Tf, type Variant } from "./similar-rankings.js";
import { loadSample } from "./similar-sample.js";
import { SIMILAR_SEEDS } from "./similar-set.js";

const GRID = process.argv.includes("--grid");

const NAMED: Array<{ name: string; variant: Variant | "served" }> = [
  { name: "served: cosine", variant: "served" },
  { name: "centred on the language", variant: { centre: "language", tf: "binary", weight: 0, themeSeeds: 0 } },
  { name: "fused, themes present or not", variant: { centre: "language", tf: "binary", weight: 1, themeSeeds: 8 } },
  { name: "fused, themes by mentions", variant: { centre: "language", tf: "log_mentions", weight: 1, themeSeeds: 8 } },
];

const articles = await loadSample();
const byId = new Map(articles.map((a) => [a.id, a]));
const storyOf = (id: string): string => byId.get(id)?.story ?? id;
const rankings = rankingsOver(articles);

if (GRID) {
  const lines: string[] = ["| centre | tf | weight | theme seeds | tuning (13) | worst |", "|---|---|---:|---:|---:|---|"];
  for (const centre of ["none", "global", "language"] as Centre[])
    for (const tf of ["binary", "mentions", "log_mentions"] as Tf[])
      for (const themeSeeds of [0, 8, 16])
        for (const weight of [0.25, 0.5, 1, 2]) {
          const f = (await figures({ centre, tf, weight, themeSeeds })).find((h) => h.half === "tuning") as HalfFigure;
          lines.push(
            `| ${centre} | ${tf} | ${weight} | ${themeSeeds} | ${f.mean.toFixed(2)} | ${f.worst.hits} of ${f.worst.of} |`,
          );
        }
  console.log(lines.join("\n"));
} else {
  const rows = [];
  for (const { name, variant } of NAMED) rows.push({ name, figures: await figures(variant) });
  console.log(similarTable(rows));
  if (process.argv.includes("--verbose")) {
    for (const { name, variant } of NAMED) console.log(`\n${name}\n${verboseLines("", await perSeed(variant)).join("\n")}`);
  }
}

async function figures(variant: Variant | "served"): Promise<HalfFigure[]> {
  return byHalf(await perSeed(variant));
}

async function perSeed(variant: Variant | "served"): Promise<SeedScore[]> {
  const rank: SimilarRanking = async (id) => {
    const seed = byId.get(id);
    if (seed === undefined) return [];
    return variant === "served" ? rankings.served(seed) : rankings.ranked(seed, variant);
  };
  return scoreSeeds(rank, storyOf, GRID ? SIMILAR_SEEDS.filter((s) => s.half === "tuning") : SIMILAR_SEEDS);
}
