import { errors, type Client } from "@opensearch-project/opensearch";
import type { ArticleDetail } from "../../domain/article.js";
import type { ArticleLookup } from "../../ports/article-store.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import { monthOf } from "../../shared/timestamps.js";
import { fromDocument, type ArticleDocument } from "./article-document.js";
import type { IndexNames } from "./index-names.js";
import { isUnavailable } from "./read-coverage.js";

// Articles read back by id. An id begins with its collection time, which
// names the one monthly index that can hold it: a lookup is a real-time get
// there, never a search. A month without an index holds no article.

const COLLECTED = /^\d{14}/;

function indexOf(names: IndexNames, id: string): string | undefined {
  return COLLECTED.test(id) ? names.articleIndex(monthOf(id)) : undefined;
}

export async function getArticle(client: Client, names: IndexNames, id: string): Promise<ArticleLookup> {
  const index = indexOf(names, id);
  if (index === undefined) return { status: "absent" };
  try {
    const { body } = await client.get({ index, id }, { ignore: [404] });
    const found = body as { found?: boolean; _source?: ArticleDocument };
    return found.found && found._source ? { status: "found", article: fromDocument(found._source) } : { status: "absent" };
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    return { status: "unavailable", reason: describe(error) };
  }
}

interface MgetDoc {
  _index: string;
  _id: string;
  found?: boolean;
  _source?: ArticleDocument;
  error?: { type?: string; reason?: string };
}

export async function getArticles(
  client: Client,
  names: IndexNames,
  ids: readonly string[],
): Promise<{ articles: Map<string, ArticleDetail>; partitionsFailed: PartitionFailure[] }> {
  const wanted = ids.flatMap((id) => {
    const index = indexOf(names, id);
    return index === undefined ? [] : [{ _index: index, _id: id }];
  });
  const articles = new Map<string, ArticleDetail>();
  const failed = new Map<string, PartitionFailure>();
  if (wanted.length === 0) return { articles, partitionsFailed: [] };
  let docs: MgetDoc[];
  try {
    const { body } = await client.mget({ body: { docs: wanted } });
    docs = body.docs as unknown as MgetDoc[];
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    const reason = describe(error);
    for (const w of wanted) failed.set(monthOf(w._id), { partition: monthOf(w._id), kind: "unreadable", reason });
    return { articles, partitionsFailed: [...failed.values()] };
  }
  for (const doc of docs) {
    if (doc.found && doc._source) articles.set(doc._id, fromDocument(doc._source));
    else if (doc.error && doc.error.type !== "index_not_found_exception") {
      const month = monthOf(doc._id);
      failed.set(month, { partition: month, kind: "unreadable", reason: `${doc.error.type}: ${doc.error.reason ?? ""}` });
    }
  }
  return { articles, partitionsFailed: [...failed.values()] };
}

/** Articles held, across the indices that can be read. */
export async function countArticles(client: Client, names: IndexNames): Promise<number> {
  const { body } = await client.count(
    { index: names.articles, ignore_unavailable: true, allow_no_indices: true },
    { ignore: [404] },
  );
  return (body as { count?: number }).count ?? 0;
}

function describe(error: unknown): string {
  if (error instanceof errors.ResponseError) return `the node refused the read (${error.statusCode ?? "?"})`;
  return `the node could not be reached (${error instanceof Error ? error.message : String(error)})`;
}
