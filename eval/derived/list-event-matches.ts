// Lists every events-v1 match on the bundled sample (data/gkg), one line per
// article (class, id, headline, url), for reading each one by hand; the
// reading and the per-class precision are in docs/signals-and-events.md.
//
//   node --import tsx eval/derived/list-event-matches.ts [DIR]

import { readdirSync } from "node:fs";
import { join } from "node:path";
import { GkgArticleSource } from "../../src/adapters/gdelt/gkg-source.js";
import { EVENT_TYPES } from "../../src/domain/vocabularies/events-v1.js";
import { SIGNAL_NAMES, signalValues } from "../../src/domain/vocabularies/signals-v1.js";

const dir = process.argv[2] ?? "data/gkg";
const source = await GkgArticleSource.create();
const matches = new Map<string, string[]>(EVENT_TYPES.map((e) => [e, []]));
const carried = new Map<string, number[]>(SIGNAL_NAMES.map((s) => [s, []]));
let articles = 0;
let withSignals = 0;
for (const file of readdirSync(dir).sort()) {
  for await (const record of source.read(join(dir, file))) {
    if (!record.ok) continue;
    articles++;
    const a = record.article;
    if (a.signals) withSignals++;
    for (const [name, value] of signalValues(a.signals)) carried.get(name)?.push(value);
    for (const e of a.event_types ?? []) matches.get(e)?.push(`${a.id}\t${a.title ?? "(no title)"}\t${a.url ?? ""}`);
  }
}
console.log(`articles ${articles}, with signals ${withSignals}`);
console.log("| signal | articles carrying it | median | 90th percentile |\n|---|---:|---:|---:|");
for (const [name, values] of carried) {
  values.sort((x, y) => x - y);
  const at = (p: number) => values[Math.max(0, Math.ceil((p * values.length) / 100) - 1)] ?? 0;
  console.log(`| \`${name}\` | ${values.length} | ${at(50)} | ${at(90)} |`);
}
for (const [name, lines] of matches) {
  console.log(`\n## ${name}: ${lines.length}`);
  for (const line of lines) console.log(line);
}
