import { ATTRIBUTION } from "../../domain/attribution.js";
import {
  acronymsOf,
  aliasMatch,
  ENTITY_RESOLUTION_VERSION,
  entityIdOf,
  entityKey,
  MATCH_CONFIDENCE,
  type AliasMatch,
  type EntityType,
} from "../../domain/entities/entity-key.js";
import type { Plan } from "../../domain/plans.js";
import type { EntityLexicon, EntitySpelling, EntitySpellings } from "../../ports/entity-lexicon.js";
import type { ArticleSearch } from "../../ports/article-search.js";
import type { PartitionFailure } from "../../ports/index-coverage.js";
import type { EntitiesResponse, EntityGroup } from "../../schemas/entity-responses.js";
import { ApiError } from "../../shared/api-error.js";
import { assertSomethingRead, completeness } from "../query-kernel/coverage.js";
import { applyPlanWindow } from "../query-kernel/plan-window.js";
import { QUERY_BUDGET_MS } from "../query-kernel/query-budget.js";

// GET /entities (spec rules 1-5): a name to its entity groups within a window.
//
// First pass: the spellings whose key holds the name's words on word
// boundaries (`exact` and `prefix`): exactly the spellings of articles whose
// text matches the name. Only when it groups nothing, a second, whole-window
// pass looks for the name as an acronym (`acronym`: `nato` for `north atlantic
// treaty organization`, and the other way round). Both are lookups in the
// er-v1 keys each monthly index keeps; spellings sharing a key form one group.

/** Spellings read per pass at most, the most carried first. */
const MAX_SPELLINGS = 500;

export interface EntitiesRequest {
  q: string;
  type: EntityType;
  limit: number;
  from?: string | undefined;
  to?: string | undefined;
}

/** The name's er-v1 key; a name of punctuation only is refused before any work. */
export function nameKeyOf(request: Pick<EntitiesRequest, "q" | "type">): string {
  const key = entityKey(request.type, request.q);
  if (key === "") {
    throw new ApiError(
      "invalid_parameter",
      `'q' holds no letter or digit to resolve: give the name as written, e.g. 'Joe Biden'.`,
      {
        parameter: "q",
      },
    );
  }
  return key;
}

export interface EntitiesOutcome {
  body: EntitiesResponse;
  /** Passes run: 1, or 2 when the first grouped nothing. */
  passes: 1 | 2;
}

export async function resolveEntity(
  index: EntityLexicon & ArticleSearch,
  request: EntitiesRequest,
  plan: Plan,
  nowMs: number,
): Promise<EntitiesOutcome> {
  const nameKey = nameKeyOf(request);
  const window = applyPlanWindow(plan, request.from, request.to, nowMs);
  const ask = (key: string, lookup: "words" | "acronym" | "id") =>
    index.entitySpellings({
      type: request.type,
      key,
      lookup,
      from: window.from,
      to: window.to,
      counts: true,
      limit: MAX_SPELLINGS,
      budgetMs: QUERY_BUDGET_MS,
    });

  const lookups: EntitySpellings[] = [await ask(nameKey, "words")];
  let passes: 1 | 2 = 1;
  if (lookups[0]?.spellings.length === 0) {
    passes = 2;
    // The name as an acronym of longer keys, and its own acronyms as keys of their own.
    if (!nameKey.includes(" ")) lookups.push(await ask(nameKey, "acronym"));
    for (const acronym of acronymsOf(nameKey)) lookups.push(await ask(acronym, "id"));
  }
  const read = [...new Set(lookups.flatMap((l) => l.partitionsRead))];
  const failed: PartitionFailure[] = lookups.flatMap((l) => l.partitionsFailed);
  assertSomethingRead({ partitionsRead: read, partitionsFailed: failed }, window.to);

  const groups = groupByKey(
    lookups.flatMap((l) => l.spellings),
    request.type,
    nameKey,
  );
  // A group of several spellings: an article may carry more than one of them, so the articles of those that can reach
  // the page are counted once each (the sum of their spellings' counts is an upper bound).
  groups.sort(byRank);
  for (const group of groups.slice(0, request.limit * 2)) {
    if (group.aliases.length < 2) continue;
    const counted = await index.search({
      filters: { entities: [{ type: request.type, key: group.key }], from: window.from, to: window.to },
      offset: 0,
      limit: 0,
      budgetMs: QUERY_BUDGET_MS,
    });
    group.articles = counted.total;
    failed.push(...counted.partitionsFailed);
  }
  const ranked = groups.sort(byRank);
  const { partial, coverage } = completeness(failed, read);
  return {
    passes,
    body: {
      type: request.type,
      q: request.q,
      entities: ranked.slice(0, request.limit).map(({ key: _key, ...group }) => group),
      approximate: lookups.some((l) => l.truncated),
      limit: request.limit,
      partial,
      coverage,
      history_days: window.history_days,
      from_clamped: window.from_clamped,
      attribution: ATTRIBUTION,
    },
  };
}

/** Spellings sharing an er-v1 key, as entity groups; every spelling of a group relates to the name the same way. */
function groupByKey(
  spellings: readonly EntitySpelling[],
  type: EntityType,
  nameKey: string,
): Array<EntityGroup & { key: string }> {
  const byKey = new Map<string, { match: AliasMatch; spellings: Map<string, EntitySpelling> }>();
  for (const spelling of spellings) {
    const match = aliasMatch(nameKey, spelling.entityKey);
    if (match === undefined) continue;
    let entry = byKey.get(spelling.entityKey);
    if (!entry) byKey.set(spelling.entityKey, (entry = { match, spellings: new Map() }));
    if (!entry.spellings.has(spelling.key)) entry.spellings.set(spelling.key, spelling);
  }
  return [...byKey].map(([key, { match, spellings: found }]) => {
    const aliases = [...found.values()]
      .sort((a, b) => b.articles - a.articles || (a.value < b.value ? -1 : 1))
      .map((s) => ({ value: s.value, count: s.articles, match }));
    return {
      key,
      entity_id: entityIdOf(type, key),
      type,
      canonical: aliases[0]?.value ?? key,
      aliases,
      articles: aliases.reduce((sum, a) => sum + a.count, 0),
      confidence: MATCH_CONFIDENCE[match],
      entity_resolution_version: ENTITY_RESOLUTION_VERSION,
    };
  });
}

/** Confidence, then articles (spec rule 2); then the id, so equal groups keep one order. */
function byRank(a: EntityGroup, b: EntityGroup): number {
  return b.confidence - a.confidence || b.articles - a.articles || (a.entity_id < b.entity_id ? -1 : 1);
}
