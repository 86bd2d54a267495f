import type { ArticleStore } from "../../src/ports/article-store.js";

// What every index port's contract suite is given: an empty index of one
// adapter holding the port under test and the article store that fills it, on
// storage of its own that `dispose` removes. Each adapter's test file passes
// a factory per suite (sqlite-index-backend.test.ts; a scaled engine's the same).

export interface IndexFixture<P> {
  index: ArticleStore & P;
  dispose(): Promise<void>;
}

export type IndexFactory<P> = () => Promise<IndexFixture<P>>;
