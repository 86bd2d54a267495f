// node:fs plus the globSync that Node 20 lacks (see node20-fs-hooks.mjs).
import fs from "node:fs";

export * from "node:fs";
export default fs;

export function globSync() {
  throw new Error("fs.globSync needs Node 22; the conformance CLI uses it only in tier-check, which these tests do not run");
}
