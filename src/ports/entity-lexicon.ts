import type { IndexUsage } from "../domain/billing/index-usage.js";
import type { EntityType } from "../domain/entities/entity-key.js";
import type { IndexCoverage } from "./index-coverage.js";

// The entity lexicon: the spellings articles carry, found through their er-v1
// keys (domain/entities/entity-key.ts) and counted within a window.

export interface EntitySpellingsQuery {
  type: EntityType;
  /** An er-v1 key: an entity id's, or a name's. */
  key: string;
  /**
   * `id`: the spellings keyed `key` (an entity id's group); `words`: spellings
   * whose key holds `key` as whole words (a name's exact and prefix matches);
   * `acronym`: spellings whose initials `key` spells.
   */
  lookup: "id" | "words" | "acronym";
  /** The window, 14-digit inclusive: only spellings carried by an article in it, counted in it. */
  from?: string | undefined;
  to?: string | undefined;
  /** Count each spelling's articles in the window; false asks only whether it has one (`articles` is then 1). */
  counts: boolean;
  /** Spellings returned at most, the most carried first. */
  limit: number;
  /** How long the read may take: indexes not read within it are reported `timed_out`. */
  budgetMs?: number;
}

export interface EntitySpelling {
  /** The folded value, as filters match it. */
  key: string;
  /** A spelling as articles carry it. */
  value: string;
  /** Its er-v1 key. */
  entityKey: string;
  /** Articles carrying it in the window (see `counts`). */
  articles: number;
}

export interface EntitySpellings extends IndexCoverage {
  /** The most carried first, at most `limit`. */
  spellings: EntitySpelling[];
  /** More spellings matched than `limit`: the rarest were left out. */
  truncated: boolean;
  /** Queries the lookup took (domain/billing/index-usage.ts lookupCredits prices them). */
  usage: IndexUsage;
}

export interface EntityLexicon {
  /** Spellings of an entity type by their er-v1 keys, within a window. */
  entitySpellings(query: EntitySpellingsQuery): Promise<EntitySpellings>;
}
