import { aggregateOperation } from "./operations/aggregate.js";
import { exportOperation } from "./operations/export.js";
import { getAccountOperation } from "./operations/get-account.js";
import { graphExposuresOperation } from "./operations/graph-exposures.js";
import { graphNetworkOperation } from "./operations/graph-network.js";
import { graphPathOperation } from "./operations/graph-path.js";
import { graphRelatedOperation } from "./operations/graph-related.js";
import { getArticleOperation } from "./operations/get-article.js";
import { getStoryOperation } from "./operations/get-story.js";
import { listStoriesOperation } from "./operations/list-stories.js";
import { resolveEntityOperation } from "./operations/resolve-entity.js";
import type { Operation } from "./operation.js";
import { searchOperation } from "./operations/search.js";
import { similarOperation } from "./operations/similar.js";
import { topHeadlinesOperation } from "./operations/top-headlines.js";
import { createWatchOperation } from "./operations/watches/create-watch.js";
import { deleteWatchOperation } from "./operations/watches/delete-watch.js";
import { getWatchOperation } from "./operations/watches/get-watch.js";
import { listWatchesOperation } from "./operations/watches/list-watches.js";
import { watchEventsOperation } from "./operations/watches/watch-events.js";

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
