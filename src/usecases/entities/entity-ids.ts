import { ENTITY_TYPES, parseEntityId, type EntityRef } from "../../domain/entities/entity-key.js";
import { invalidParameter } from "../../shared/api-error.js";

// `entity_id` as given (spec section 4, shared filters): up to five ids,
// comma-separated or repeated, each `<published type>:<name>`. Published ids
// never hold a comma (er-v1 keys have no punctuation), so a comma always
// separates two ids.

export const MAX_ENTITY_IDS = 5;

/** The distinct ids, in the order given; a malformed id or more than five is `invalid_parameter`. */
export function parseEntityIds(given: string | readonly string[]): EntityRef[] {
  const texts = (typeof given === "string" ? [given] : given).flatMap((value) => value.split(",")).map((t) => t.trim());
  if (texts.length > MAX_ENTITY_IDS) {
    throw invalidParameter(
      "entity_id",
      `'entity_id' names ${texts.length} ids; at most ${MAX_ENTITY_IDS} are allowed per request.`,
    );
  }
  const refs: EntityRef[] = [];
  for (const text of texts) {
    const ref = parseEntityId(text);
    if (ref === undefined) {
      throw invalidParameter(
        "entity_id",
        `'entity_id' holds '${text.slice(0, 200)}', which is not an entity id: expected <type>:<name> as /entities returns it, type one of ${ENTITY_TYPES.join(", ")} (e.g. person:joe biden).`,
      );
    }
    if (!refs.some((r) => r.id === ref.id)) refs.push(ref);
  }
  return refs;
}
