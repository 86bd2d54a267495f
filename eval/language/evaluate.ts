import { COL_TRANSLATION_INFO } from "../../src/adapters/gdelt/gkg-columns.js";
import { readGkgRows } from "../../src/adapters/gdelt/gkg-lines.js";
import { parseGkgRecord } from "../../src/adapters/gdelt/gkg-record.js";
import { PublisherCountryLookup } from "../../src/adapters/gdelt/publisher-country.js";
import { untranslatedLanguage } from "../../src/adapters/gdelt/title-language.js";
import type { ArticleDetail } from "../../src/domain/article.js";
import { SAMPLE_FILES } from "../../test/support/test-server.js";

// The language rule for records without translation info
// (src/adapters/gdelt/title-language.ts) on the bundled sample: every
// headline it relabels (read them: each should be in the language shown),
// and how often it names the srclc language of the translated records when
// their translation info is ignored.
// Run: node --import tsx eval/language/evaluate.ts

const countries = await PublisherCountryLookup.load();
const untranslated: ArticleDetail[] = [];
const translated: ArticleDetail[] = [];
for (const file of Object.values(SAMPLE_FILES)) {
  for await (const row of readGkgRows(file)) {
    if ("error" in row) continue;
    const parsed = parseGkgRecord(row.fields, countries);
    if (!parsed.ok || parsed.article.title === null) continue;
    ((row.fields[COL_TRANSLATION_INFO] ?? "").trim() === "" ? untranslated : translated).push(parsed.article);
  }
}

const relabelled = untranslated.filter((a) => a.language !== "eng");
const byLanguage = new Map<string, number>();
for (const a of relabelled) byLanguage.set(a.language ?? "", (byLanguage.get(a.language ?? "") ?? 0) + 1);
console.log(`titled records without translation info: ${untranslated.length}; not eng: ${relabelled.length}`);
console.log(`  by language: ${[...byLanguage].map(([language, n]) => `${language} ${n}`).join(", ")}`);
for (const a of relabelled) console.log(`  ${a.language}  ${a.source}  ${a.title}`);

const misses: string[] = [];
for (const a of translated) {
  const detected = untranslatedLanguage(a.title);
  if (detected !== a.language) misses.push(`${a.language}->${detected}`);
}
console.log(
  `titled translated records: ${translated.length}; srclc named with translation info ignored: ${translated.length - misses.length}`,
);
console.log(`  misses: ${misses.join(" ")}`);
const started = performance.now();
for (let round = 0; round < 5; round++) for (const a of untranslated) untranslatedLanguage(a.title);
console.log(`  ${(((performance.now() - started) / (5 * untranslated.length)) * 1000).toFixed(0)} µs a headline`);
