import type { Client } from "@opensearch-project/opensearch";
import type { Bulk_RequestBody } from "@opensearch-project/opensearch/api/_core/bulk.js";
import type { Article } from "../../domain/article.js";
import { embeddingText } from "../../domain/embedding-text.js";
import type { Embedder } from "../../ports/embedder.js";
import type { EmbeddingBacklog, EmbeddingStage } from "../../ports/embedding-stage.js";
import type { ArticleIndices } from "./article-indices.js";
import { search } from "./search-request.js";

// The embedding stage of the scaled shape: the next articles of a monthly
// index without a vector of the configured model, embedded here and written
// back as partial updates of their `indexed` object. The node's Lucene HNSW
// graph takes each vector as it is written: there is nothing to build after.
// An article with no text to embed records the model without a vector.

type EmbeddedFields = Pick<Article, "title" | "persons" | "organizations" | "locations">;

interface BacklogAggregate {
  months: { buckets: Array<{ key: string; doc_count: number; embedded: { doc_count: number } }> };
}

export class OpenSearchEmbeddingStage implements EmbeddingStage {
  readonly model: string;

  constructor(
    private readonly client: Client,
    private readonly indices: ArticleIndices,
    private readonly embedder: Embedder,
  ) {
    this.model = embedder.model;
  }

  async backlog(): Promise<EmbeddingBacklog[]> {
    const readable = (await this.indices.months()).filter((m) => m.readable);
    if (readable.length === 0) return [];
    const response = await search(this.client, {
      index: readable.map((m) => m.index).join(","),
      body: {
        size: 0,
        track_total_hits: false,
        aggs: {
          months: {
            terms: { field: "_index", size: readable.length },
            aggs: { embedded: { filter: { term: { "indexed.vector_model": this.model } } } },
          },
        },
      },
    });
    const buckets = (response.aggregations as BacklogAggregate | undefined)?.months.buckets ?? [];
    const byIndex = new Map(buckets.map((b) => [b.key, b]));
    return readable
      .map((m) => ({
        month: m.month,
        articles: byIndex.get(m.index)?.doc_count ?? 0,
        embedded: byIndex.get(m.index)?.embedded.doc_count ?? 0,
      }))
      .sort((a, b) => (a.month < b.month ? 1 : -1));
  }

  async embedNext(month: string, max: number): Promise<{ embedded: number; backlog: EmbeddingBacklog }> {
    const index = this.indices.names.articleIndex(month);
    const next = await search<EmbeddedFields>(this.client, {
      index,
      body: {
        size: max,
        track_total_hits: false,
        // Collection order: ids begin with the collection time.
        sort: [{ id: "asc" }],
        _source: { includes: ["title", "persons", "organizations", "locations"] },
        query: { bool: { must_not: [{ term: { "indexed.vector_model": this.model } }] } },
      },
    });
    const hits = next.hits.hits;
    if (hits.length > 0) {
      const texts = hits.map((h) => (h._source ? embeddingText(h._source) : ""));
      const withText = hits.flatMap((h, i) => (texts[i] !== "" ? [i] : []));
      const vectors =
        withText.length > 0
          ? await this.embedder.embed(
              withText.map((i) => texts[i] as string),
              "passage",
            )
          : [];
      const vectorOf = new Map(withText.map((i, j) => [i, vectors[j]]));
      const lines: string[] = [];
      hits.forEach((hit, i) => {
        const vector = vectorOf.get(i);
        const indexed = vector ? { vector: Array.from(vector), vector_model: this.model } : { vector_model: this.model };
        lines.push(JSON.stringify({ update: { _index: index, _id: hit._id } }), JSON.stringify({ doc: { indexed } }));
      });
      // The next call must not find these again: visible to its search when this returns.
      const { body } = await this.client.bulk({ body: `${lines.join("\n")}\n` as unknown as Bulk_RequestBody, refresh: true });
      if (body.errors) {
        const failed = (body.items as unknown as Array<{ update?: { error?: { reason?: string } } }>).find(
          (i) => i.update?.error,
        );
        throw new Error(`OpenSearch refused an embedding update: ${failed?.update?.error?.reason ?? "unknown"}`);
      }
    }
    const backlog = (await this.backlog()).find((b) => b.month === month) ?? { month, articles: 0, embedded: 0 };
    return { embedded: hits.length, backlog };
  }

  /** The node indexes each vector as it is written: nothing to build. */
  async indexVectors(_month: string): Promise<number> {
    return 0;
  }

  /** The stage owns its embedder (a model of its own, apart from the server's query embedder). */
  async close(): Promise<void> {
    await this.embedder.close();
  }
}
