import { fileURLToPath } from "node:url";

/** The model shipped in the repository (models/), used unless the operator names another directory. */
export const SHIPPED_MODEL_DIR = fileURLToPath(new URL("../../../models/e5-small-v2-q/", import.meta.url));
