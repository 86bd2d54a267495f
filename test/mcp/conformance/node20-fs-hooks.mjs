// Module hooks that let the conformance CLI (built for Node 22) run on the
// Node 20 this project supports. Its only Node 22 API is fs.globSync, which it
// imports at the top but calls only in `tier-check`, a mode we never run: the
// CLI's `fs` import is pointed at a module that adds a globSync which throws.

const SHIM = new URL("./node20-fs-shim.mjs", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const fromConformance = context.parentURL?.includes("/@modelcontextprotocol/conformance/") ?? false;
  if (fromConformance && (specifier === "fs" || specifier === "node:fs")) return { url: SHIM, shortCircuit: true };
  return nextResolve(specifier, context);
}
