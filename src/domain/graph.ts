// Vocabulary of the relationship graph (spec 02, "Graph edge"): the types a
// co-mentioned entity can have, the default ones, and the association caveat
// every graph response carries.

/** Edge types: the entity types a neighbour can have. */
export const EDGE_TYPES = ["organization", "person", "location", "city", "region", "topic", "name"] as const;
export type EdgeType = (typeof EDGE_TYPES)[number];

/** `types` when not given. */
export const DEFAULT_EDGE_TYPES: readonly EdgeType[] = ["organization", "person", "location", "topic"];

/**
 * The neighbours a path may run through: named entities. Topics are left out:
 * a theme most reporting carries ("leader", "general_government") would join
 * nearly any two entities and say nothing about how they connect.
 */
export const PATH_NEIGHBOUR_TYPES: readonly EdgeType[] = ["organization", "person", "location"];

/** The association caveat (`note`). */
export const ASSOCIATION_NOTE =
  "Co-mention in reporting: articles that name both entities. It is not ownership, partnership, causation or exposure, and it counts articles, not events (one wire story on forty outlets counts forty times).";
