import type { ArticleDetail } from "../../src/domain/article.js";
import { ENTITY_TYPE_FIELDS, entityKey, parseEntityId, type EntityType } from "../../src/domain/entities/entity-key.js";
import { FILTER_FIELDS } from "../../src/domain/filter-fields.js";
import { readArticles } from "./gkg-fixtures.js";

// Co-mentions counted by brute force over the parsed sample: the answer every
// graph count is checked against. An article names an entity when one of the
// values of its type's field has the entity's er-v1 key.

export class CoMentions {
  private constructor(private readonly articles: readonly ArticleDetail[]) {}

  /** The articles of `files`, once per id (the index stores an id once: the first one ingested). */
  static async of(files: readonly string[]): Promise<CoMentions> {
    const byId = new Map<string, ArticleDetail>();
    for (const article of await readArticles(files)) if (!byId.has(article.id)) byId.set(article.id, article);
    return new CoMentions([...byId.values()]);
  }

  byId(id: string): ArticleDetail {
    const article = this.articles.find((a) => a.id === id);
    if (!article) throw new Error(`no article ${id} in the sample`);
    return article;
  }

  /** The articles naming every id, narrowed by `where`. */
  naming(ids: readonly string[], where: (a: ArticleDetail) => boolean = () => true): ArticleDetail[] {
    return this.articles.filter((a) => where(a) && ids.every((id) => names(a, id)));
  }

  count(ids: readonly string[], where?: (a: ArticleDetail) => boolean): number {
    return this.naming(ids, where).length;
  }

  /** Entity ids of `type` named by any article naming every id of `ids`. */
  neighbours(ids: readonly string[], type: EntityType): Set<string> {
    const out = new Set<string>();
    for (const a of this.naming(ids)) for (const key of keysOf(a, type)) out.add(`${type}:${key}`);
    for (const id of ids) out.delete(id);
    return out;
  }
}

export function keysOf(article: ArticleDetail, type: EntityType): Set<string> {
  return new Set(FILTER_FIELDS[ENTITY_TYPE_FIELDS[type]].values(article).map((v) => entityKey(type, v)));
}

export function names(article: ArticleDetail, id: string): boolean {
  const ref = parseEntityId(id);
  if (!ref) throw new Error(`not an entity id: ${id}`);
  return keysOf(article, ref.type).has(ref.key);
}
