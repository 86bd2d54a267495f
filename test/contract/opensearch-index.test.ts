import { OpenSearchIndex } from "../../src/adapters/opensearch/opensearch-index.js";
import { testOpenSearch } from "../support/opensearch.js";
import { describeArticleSearchContract } from "./article-search.contract.js";
import { describeArticleStoreContract } from "./article-store.contract.js";
import { describeEntityLexiconContract } from "./entity-lexicon.contract.js";
import type { IndexFactory } from "./index-fixture.js";
import { describeIndexMaintenanceContract } from "./index-maintenance.contract.js";
import { describeStoryIndexContract } from "./story-index.contract.js";
import { describeVectorSearchContract } from "./vector-search.contract.js";

// The scaled shape's index against every index port's contract suite, on a
// real OpenSearch node (.ci/opensearch.sh), each suite under a name prefix of
// its own that is deleted afterwards.

const openSearchIndex: IndexFactory<OpenSearchIndex> = async () => {
  const node = await testOpenSearch();
  return {
    index: new OpenSearchIndex(node.client, { prefix: node.prefix }),
    dispose: () => node.dispose(),
  };
};

describeArticleStoreContract("opensearch", openSearchIndex);
describeArticleSearchContract("opensearch", openSearchIndex);
describeEntityLexiconContract("opensearch", openSearchIndex);
describeVectorSearchContract("opensearch", openSearchIndex);
describeStoryIndexContract("opensearch", openSearchIndex);
describeIndexMaintenanceContract("opensearch", openSearchIndex);
