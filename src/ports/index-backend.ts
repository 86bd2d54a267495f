import type { ArticleExporter } from "./article-export.js";
import type { ArticleSearch } from "./article-search.js";
import type { ArticleStore } from "./article-store.js";
import type { EntityLexicon } from "./entity-lexicon.js";
import type { VectorSearch } from "./vector-search.js";

// The article index as the composition root hands it out: embedded SQLite (one
// file per month) or, in the scaled shape, OpenSearch. Each capability is a
// port of its own (article store, article search and tallies, entity lexicon,
// vector search, export walk; stories in story-index.ts, maintenance in
// index-maintenance.ts), so a use case names only what it reads.

export interface IndexBackend extends ArticleStore, ArticleSearch, EntityLexicon, VectorSearch, ArticleExporter {
  close(): Promise<void>;
}
