import { aggregateOperation } from "./aggregate.js";
import { exportOperation } from "./export.js";
import { getAccountOperation } from "./get-account.js";
import { graphExposuresOperation } from "./graph-exposures.js";
import { graphNetworkOperation } from "./graph-network.js";
import { graphPathOperation } from "./graph-path.js";
import { graphRelatedOperation } from "./graph-related.js";
import { getArticleOperation } from "./get-article.js";
import { getStoryOperation } from "./get-story.js";
import { listStoriesOperation } from "./list-stories.js";
import { resolveEntityOperation } from "./resolve-entity.js";
import type { Operation } from "./operation.js";
import { searchOperation } from "./search.js";
import { similarOperation } from "./similar.js";
import { topHeadlinesOperation } from "./top-headlines.js";
import { createWatchOperation } from "./watches/create-watch.js";
import { deleteWatchOperation } from "./watches/delete-watch.js";
import { getWatchOperation } from "./watches/get-watch.js";
import { listWatchesOperation } from "./watches/list-watches.js";
import { watchEventsOperation } from "./watches/watch-events.js";

/** Every endpoint, once. REST routes, OpenAPI and MCP tools are generated from this list. */
export const OPERATIONS: readonly Operation[] = [
  searchOperation,
  topHeadlinesOperation,
  listStoriesOperation,
  getStoryOperation,
  getArticleOperation,
  getAccountOperation,
  // Watches (spec 02)
  listWatchesOperation,
  createWatchOperation,
  getWatchOperation,
  deleteWatchOperation,
  watchEventsOperation,
  resolveEntityOperation,
  aggregateOperation,
  // The relationship graph (spec 02).
  graphRelatedOperation,
  graphPathOperation,
  graphNetworkOperation,
  graphExposuresOperation,
  similarOperation,
  exportOperation,
];
