import { existsSync, readFileSync, writeFileSync } from "node:fs";

// bench/RESULTS.md holds one section per part of the bench, each between its
// own markers and rewritten only by the run that measured it, then the
// hand-written analysis below ANALYSIS_MARKER, which no run touches.

export const ANALYSIS_MARKER = "<!-- analysis: kept by npm run bench -->";

/** Replaces the named section of the results file (or adds it before the analysis). */
export function writeSection(path: string, name: string, body: string): void {
  const text = existsSync(path) ? readFileSync(path, "utf8") : `${ANALYSIS_MARKER}\n`;
  const open = `<!-- ${name}: written by npm run bench -->`;
  const close = `<!-- /${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}\n`;
  const from = text.indexOf(open);
  const to = text.indexOf(close);
  if (from >= 0 && to > from) {
    writeFileSync(path, text.slice(0, from) + block + text.slice(to + close.length).replace(/^\n/, ""));
    return;
  }
  const at = text.indexOf(ANALYSIS_MARKER);
  writeFileSync(path, at >= 0 ? `${text.slice(0, at)}${block}\n${text.slice(at)}` : `${text}\n${block}`);
}

/** A bench's section for a corpus of `articles`: 1M keeps the section's own name, other sizes get one of their own. */
export function sizedSection(name: string, articles: number): string {
  return articles === 1_000_000 ? name : `${name}-${articles}`;
}

/** A section's heading, naming the corpus size when it is not the 1M every target is set at. */
export function sizedHeading(heading: string, articles: number): string {
  return articles === 1_000_000 ? heading : `${heading} (${articles.toLocaleString("en")} articles)`;
}
