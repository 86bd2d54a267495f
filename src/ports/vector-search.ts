import type { ArticleQuery } from "../domain/search-query.js";
import type { IndexCoverage } from "./index-coverage.js";

// Vector search: the articles nearest a query vector among those passing the
// filters (semantic and hybrid ranking, /similar), and an article's own vector.

export interface NearestQuery {
  vector: Float32Array;
  /** The model `vector` was made with: only vectors of the same model are compared. */
  model: string;
  filters: ArticleQuery["filters"];
  k: number;
  /** How long the read may take: indexes not read within it are reported `timed_out`. */
  budgetMs?: number;
  /** Leaves out this story's members (/similar: the seed's own story, however large). */
  excludeStory?: string;
}

export interface NearestArticle {
  id: string;
  story_id: string | null;
  published_at: string;
  /** Cosine similarity. */
  score: number;
}

export interface NearestResult extends IndexCoverage {
  /** Best first (ties: the newer article id first), at most `k`. */
  hits: NearestArticle[];
  /** Articles compared with the query vector (an approximate search compares fewer than an exact one). */
  scored: number;
  /** Indexes read where some matching articles are not embedded (with the model) yet: they were left out. */
  partitionsUnembedded: string[];
}

export type VectorLookup =
  /** `vector` null: the article has no text to embed. */
  | { status: "found"; vector: Float32Array | null; story_id: string | null }
  | { status: "unembedded"; story_id: string | null }
  | { status: "absent" }
  | { status: "unavailable"; reason: string };

export interface VectorSearch {
  nearest(query: NearestQuery): Promise<NearestResult>;
  /** An article's stored vector (the seed of /similar). */
  vectorOf(id: string, model: string): Promise<VectorLookup>;
}
