import { getAccountOperation } from "./get-account.js";
import { getArticleOperation } from "./get-article.js";
import { getStoryOperation } from "./get-story.js";
import { listStoriesOperation } from "./list-stories.js";
import type { Operation } from "./operation.js";
import { searchOperation } from "./search.js";
import { similarOperation } from "./similar.js";
import { topHeadlinesOperation } from "./top-headlines.js";

/** Every endpoint, once. REST routes, OpenAPI and MCP tools are generated from this list. */
export const OPERATIONS: readonly Operation[] = [
  searchOperation,
  topHeadlinesOperation,
  listStoriesOperation,
  getStoryOperation,
  getArticleOperation,
  getAccountOperation,
  similarOperation,
];
