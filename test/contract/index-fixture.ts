import { afterAll, beforeAll, expect } from "vitest";
import type { ArticleDetail } from "../../src/domain/article.js";
import type { ArticleStore } from "../../src/ports/article-store.js";
import { readArticles } from "../support/gkg-fixtures.js";

// What every index port's contract suite is given: an empty index of one
// adapter holding the port under test and the article store that fills it, on
// storage of its own that `dispose` removes. Each adapter's test file passes
// a factory per suite (sqlite-index-backend.test.ts; a scaled engine's the same).

export interface IndexFixture<P> {
  index: ArticleStore & P;
  dispose(): Promise<void>;
}

export type IndexFactory<P> = () => Promise<IndexFixture<P>>;

/** A suite's index, and the articles of `files` written to it before the suite's tests (disposed of after them). */
export interface FilledIndex<P> {
  readonly index: ArticleStore & P;
  readonly articles: ArticleDetail[];
}

/** Call inside a `describe`: makes the index with `create` and writes the real GKG records of `files` to it. */
export function filledIndex<P>(create: IndexFactory<P>, files: readonly string[]): FilledIndex<P> {
  let fixture: IndexFixture<P> | undefined;
  let articles: ArticleDetail[] = [];
  beforeAll(async () => {
    fixture = await create();
    articles = await readArticles(files);
    expect(await fixture.index.write(articles)).toEqual({ inserted: articles.length, unchanged: 0 });
  });
  afterAll(async () => {
    await fixture?.dispose();
  });
  return {
    get index() {
      if (fixture === undefined) throw new Error("the index is made before the suite's tests");
      return fixture.index;
    },
    get articles() {
      return articles;
    },
  };
}
