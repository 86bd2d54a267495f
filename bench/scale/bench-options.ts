import { parseArgs } from "node:util";

// The command line every scale benchmark of one feature takes:
//   --articles N (1,000,000)  --months N (6)  --seconds N (5)  --reuse  --out FILE (bench/RESULTS.md)
// Corpus and indexes live under bench/.data/ (gitignored).

export interface BenchOptions {
  articles: number;
  months: number;
  seconds: number;
  /** Keep an index an earlier run built from the same corpus. */
  reuse: boolean;
  /** The results file whose section the bench rewrites. */
  out: string;
  /** bench/.data/ */
  dataDir: string;
}

export function benchOptions(): BenchOptions {
  const { values } = parseArgs({
    options: {
      articles: { type: "string", default: "1000000" },
      months: { type: "string", default: "6" },
      seconds: { type: "string", default: "5" },
      reuse: { type: "boolean", default: false },
      out: { type: "string", default: new URL("../RESULTS.md", import.meta.url).pathname },
    },
  });
  return {
    articles: Number(values.articles),
    months: Number(values.months),
    seconds: Number(values.seconds),
    reuse: values.reuse,
    out: values.out,
    dataDir: new URL("../.data/", import.meta.url).pathname,
  };
}
