import type { Client } from "@opensearch-project/opensearch";
import type { NearestArticle, NearestQuery, NearestResult, VectorLookup } from "../../ports/vector-search.js";
import { monthOf } from "../../shared/timestamps.js";
import type { ArticleDocument } from "./article-document.js";
import type { IndexNames } from "./index-names.js";
import type { MonthReader } from "./month-reader.js";
import { filterClauses, type Query } from "./query-dsl.js";
import { isUnavailable } from "./read-coverage.js";

// Semantic ranking on the node: a filtered `knn` query on the Lucene HNSW
// graph of every monthly index the window picks (the filters are applied while
// the graph is searched, so `k` results pass them), over the vectors made with
// the query's model only. Beside it, one count says which months hold matches
// not embedded yet (left out of the ranking, and said so).

/** The Lucene engine scores cosine similarity as (1 + cos) / 2. */
function cosineOf(score: number): number {
  return 2 * score - 1;
}

interface Months {
  unembedded: { months: { buckets: Array<{ key: string; doc_count: number }> } };
  embedded: { doc_count: number };
}

export async function nearest(reader: MonthReader, names: IndexNames, query: NearestQuery): Promise<NearestResult> {
  const ofModel: Query = { term: { "indexed.vector_model": query.model } };
  const filters = filterClauses(query.filters);
  const excluded: Query[] = query.excludeStory !== undefined ? [{ term: { story_id: query.excludeStory } }] : [];
  const options = { budgetMs: query.budgetMs };
  const [ranked, tally] = await Promise.all([
    reader.read<Pick<ArticleDocument, "story_id" | "indexed">>(
      query.filters,
      {
        size: query.k,
        track_total_hits: false,
        _source: { includes: ["story_id", "indexed.stamp"] },
        query: {
          knn: {
            "indexed.vector": {
              vector: Array.from(query.vector),
              k: query.k,
              filter: { bool: { filter: [...filters, ofModel], ...(excluded.length > 0 ? { must_not: excluded } : {}) } },
            },
          },
        },
      },
      options,
    ),
    reader.read(
      query.filters,
      {
        size: 0,
        track_total_hits: false,
        ...(filters.length > 0 ? { query: { bool: { filter: filters } } } : {}),
        aggs: {
          unembedded: { filter: { bool: { must_not: [ofModel] } }, aggs: { months: { terms: { field: "_index", size: 1000 } } } },
          embedded: { filter: ofModel },
        },
      },
      options,
    ),
  ]);
  const hits: NearestArticle[] = (ranked.response?.hits.hits ?? []).map((hit) => ({
    id: hit._id,
    story_id: hit._source?.story_id ?? null,
    published_at: hit._source?.indexed.stamp ?? hit._id.slice(0, 14),
    score: cosineOf(hit._score ?? 0),
  }));
  // Ties: the newer article id first (ports/vector-search.ts).
  hits.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const months = tally.response?.aggregations as Months | undefined;
  const unembedded = (months?.unembedded.months.buckets ?? [])
    .filter((b) => b.doc_count > 0)
    .flatMap((b) => {
      const month = names.monthOf(b.key);
      return month !== undefined && ranked.coverage.partitionsRead.includes(month) ? [month] : [];
    })
    .sort();
  return {
    hits,
    // The embedded articles the filters let through: the graph compares a share of them, an exact scan all.
    scored: months?.embedded.doc_count ?? 0,
    partitionsRead: ranked.coverage.partitionsRead,
    partitionsFailed: ranked.coverage.partitionsFailed,
    partitionsUnembedded: unembedded,
  };
}

export async function vectorOf(client: Client, names: IndexNames, id: string, model: string): Promise<VectorLookup> {
  if (!/^\d{14}/.test(id)) return { status: "absent" };
  try {
    const { body } = await client.get(
      { index: names.articleIndex(monthOf(id)), id, _source_includes: ["story_id", "indexed.vector", "indexed.vector_model"] },
      { ignore: [404] },
    );
    const doc = body as { found?: boolean; _source?: Pick<ArticleDocument, "story_id" | "indexed"> };
    if (!doc.found || !doc._source) return { status: "absent" };
    const story_id = doc._source.story_id ?? null;
    const indexed = doc._source.indexed;
    if (indexed?.vector_model !== model) return { status: "unembedded", story_id };
    return { status: "found", vector: indexed.vector ? Float32Array.from(indexed.vector) : null, story_id };
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    return { status: "unavailable", reason: error instanceof Error ? error.message : String(error) };
  }
}
