import { CLUSTERING_VERSION } from "../domain/stories/same-story.js";

// Both story stores record the clustering version that built their state and
// refuse to add to state of another: mixing two algorithms' clusters would
// split or merge stories arbitrarily.

/** The story clustering state at `where` holds clusters of another version. */
export class OtherClusteringVersionError extends Error {
  /** `remedy`: how to re-cluster where this store keeps its state. */
  constructor(where: string, version: string, remedy: string) {
    super(
      `${where} holds stories clustered with ${version}; this version clusters with ${CLUSTERING_VERSION}. ` +
        `${remedy}; serving the existing one needs no change.`,
    );
  }
}
