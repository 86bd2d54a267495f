import { ACRONYM_SKIPS, acronymsOf } from "../../domain/entities/entity-key.js";
import { foldValue } from "../../domain/filter-fields.js";
import type { EntitySpelling, EntitySpellings, EntitySpellingsQuery } from "../../ports/entity-lexicon.js";
import { SPELLING_SEPARATOR } from "./article-document.js";
import type { MonthReader } from "./month-reader.js";
import { windowClauses, type Query } from "./query-dsl.js";

// The entity lexicon over OpenSearch: each article keeps its spellings as
// `<type>|<er-v1 key>|<spelling>` (article-document.ts), so a lookup is one
// terms aggregation over the window's articles, its terms picked by a regular
// expression on the type and key (the node intersects it with the terms
// dictionary) and counted per article. Spellings that fold alike are merged
// (an article carries each folded value once, so their counts add exactly).

const SEP = `\\${SPELLING_SEPARATOR}`;
/** One word of a key (keys are letters, digits and single spaces). */
const WORD = `[^ ${SEP}]*`;

/** The regular expression (Lucene syntax, matched against the whole term) of the spellings a lookup asks for. */
export function spellingPattern(query: Pick<EntitySpellingsQuery, "type" | "key" | "lookup">): string {
  const key = query.key;
  let keyPattern: string;
  switch (query.lookup) {
    case "id":
      keyPattern = key;
      break;
    case "words":
      keyPattern = `(${WORD} )*${key}( ${WORD})*`;
      break;
    case "acronym": {
      // Words starting with the acronym's letters in order, skip words anywhere between: checked exactly after.
      const skip = `(${[...ACRONYM_SKIPS].join("|")})`;
      const initials = [...key].map((c) => `${c}${WORD}`);
      keyPattern = `(${skip} )*${initials.join(`( ${skip})* `)}( ${skip})*`;
      break;
    }
  }
  return `${query.type}${SEP}${keyPattern}${SEP}.*`;
}

interface Bucket {
  key: string;
  doc_count: number;
}

export async function entitySpellings(reader: MonthReader, query: EntitySpellingsQuery): Promise<EntitySpellings> {
  const pattern = spellingPattern(query);
  // Spellings folding alike merge after counting: ask for more than the limit so the merged list still fills it.
  const size = query.limit * 2 + 10;
  const filter: Query[] = [{ regexp: { "indexed.spellings": { value: pattern } } }, ...windowClauses(query)];
  const read = await reader.read(
    { from: query.from, to: query.to },
    {
      query: { bool: { filter } },
      size: 0,
      track_total_hits: false,
      aggs: { spellings: { terms: { field: "indexed.spellings", include: pattern, size, shard_size: size * 2 } } },
    },
    { budgetMs: query.budgetMs },
  );
  const terms = read.response?.aggregations?.spellings as { buckets: Bucket[]; sum_other_doc_count: number } | undefined;
  const merged = new Map<string, EntitySpelling>();
  for (const bucket of terms?.buckets ?? []) {
    const [, entityKey = "", value = ""] = splitSpelling(bucket.key);
    if (query.lookup === "acronym" && !acronymsOf(entityKey).includes(query.key)) continue;
    const key = foldValue(value);
    const seen = merged.get(key);
    if (seen) seen.articles += bucket.doc_count;
    else merged.set(key, { key, value, entityKey, articles: bucket.doc_count });
  }
  const ranked = [...merged.values()].sort((a, b) => b.articles - a.articles || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const spellings = ranked.slice(0, query.limit).map((s) => (query.counts ? s : { ...s, articles: 1 }));
  return {
    spellings,
    truncated: ranked.length > query.limit || (terms?.sum_other_doc_count ?? 0) > 0,
    ...read.coverage,
    usage: { indexQueries: 1, candidatesExamined: 0 },
  };
}

/** `<type>|<key>|<spelling>`: the spelling may itself hold the separator, the type and key never do. */
function splitSpelling(term: string): [string, string, string] {
  const first = term.indexOf(SPELLING_SEPARATOR);
  const second = term.indexOf(SPELLING_SEPARATOR, first + 1);
  return [term.slice(0, first), term.slice(first + 1, second), term.slice(second + 1)];
}
