import { FILTER_FIELDS, foldValue } from "../../domain/filter-fields.js";
import { headlineKey } from "../../domain/stories/headline-key.js";
import type { ArticlePartition } from "./article-partition.js";
import { decodeDoc } from "./doc-codec.js";
import type { ArticleDetail } from "../../domain/article.js";

// One story in one monthly index, as /stories and /stories/{id} show it: its
// members in the window as narrow rows (no document read), and how many of
// them each publisher and each headline has. Where the window covers the
// index whole, those counts are the ones kept at write time (story-tally.ts);
// where it cuts into the index, they are counted from the members in it.

/** A member as ordered and fetched: [rowid, id, published_at]. */
export type MemberRow = [number, string, string];

export interface StoryMonthOverview {
  /** Members in the window, earliest first (ties by id). */
  members: MemberRow[];
  /** Per publisher (folded key): its spelling and members. */
  sources: Array<{ key: string; value: string; articles: number }>;
  /** Per normalised headline (domain/stories/headline-key.ts): members. */
  headlines: Array<{ headline: string; articles: number }>;
}

/** What a story's representative and first reporter need of a member's document. */
export interface MemberFields {
  title: string | null;
  url: string | null;
  source: string | null;
}

export function storyMonthOverview(
  partition: ArticlePartition,
  storyId: string,
  from: string | undefined,
  to: string | undefined,
): StoryMonthOverview | undefined {
  const term = partition.termId(FILTER_FIELDS.story_id.code, foldValue(storyId));
  if (term === undefined) return undefined;
  const statements = partition.statements;
  const members = statements
    .get(
      `SELECT a.rowid, a.id, a.published_at FROM postings p JOIN articles a ON a.rowid = p.article
       WHERE p.term = @term AND (@from IS NULL OR a.published_at >= @from) AND (@to IS NULL OR a.published_at <= @to)
       ORDER BY a.published_at, a.id`,
    )
    .raw()
    .all({ term, from: from ?? null, to: to ?? null }) as MemberRow[];
  if (members.length === 0) return undefined;
  const bounds = partition.stats().bounds;
  const whole =
    bounds !== undefined && (from === undefined || from <= bounds.oldest) && (to === undefined || to >= bounds.newest);
  if (whole) {
    const sources = statements
      .get(
        `SELECT st.key, coalesce(nullif(st.value, ''), st.key) AS value, ss.articles
         FROM story_sources ss JOIN terms st ON st.id = ss.source WHERE ss.story = ?`,
      )
      .all(term) as StoryMonthOverview["sources"];
    const headlines = statements
      .get("SELECT headline, articles FROM story_headlines WHERE story = ?")
      .all(term) as StoryMonthOverview["headlines"];
    return { members, sources, headlines };
  }
  // The window cuts into this index: count the members in it.
  const sources = new Map<string, { key: string; value: string; articles: number }>();
  const headlines = new Map<string, number>();
  for (const fields of memberFields(
    partition,
    members.map((m) => m[0]),
  ).values()) {
    if (fields.source !== null) {
      const key = foldValue(fields.source);
      const seen = sources.get(key);
      if (seen) seen.articles++;
      else sources.set(key, { key, value: fields.source, articles: 1 });
    }
    const headline = headlineKey(fields.title, fields.source);
    if (headline !== null) headlines.set(headline, (headlines.get(headline) ?? 0) + 1);
  }
  return {
    members,
    sources: [...sources.values()],
    headlines: [...headlines].map(([headline, articles]) => ({ headline, articles })),
  };
}

/** Title, url and publisher of the given members, by rowid. */
export function memberFields(partition: ArticlePartition, rowids: readonly number[]): Map<number, MemberFields> {
  const rows = partition.statements
    .get("SELECT d.rowid, d.doc FROM json_each(?) j JOIN docs d ON d.rowid = j.value")
    .raw()
    .all(JSON.stringify(rowids)) as Array<[number, Buffer]>;
  return new Map(
    rows.map(([rowid, doc]) => {
      const { title, url, source } = JSON.parse(decodeDoc(doc)) as Pick<ArticleDetail, "title" | "url" | "source">;
      return [rowid, { title, url, source }];
    }),
  );
}
