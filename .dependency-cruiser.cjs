// The layering of src/, checked by `npm test` (npm run depcheck) and proven to
// fail on a bad import by test/architecture/dependency-rule.test.ts.
//
//   shared <- domain <- {ports, schemas} <- services <- operations <- transport <- {http, mcp}
//                                                               operations <- jobs
//
// Each folder may import only itself and the folders listed for it in LAYERS;
// type-only imports count like any other. Beside the layers:
//
// - adapters/ implement ports: they import shared, domain and ports, and are
//   imported only by the composition root, src/container.ts. Unit tests
//   (*.test.ts) are their own composition roots and may import adapters too:
//   tests run on real parts.
// - schemas/ is the public contract in TypeBox: parameter and response
//   declarations over domain vocabularies. Services name their responses by it
//   (Static<>); operations and both doors derive from it.
// - transport/ is what the two doors share (the presented key, the JSON error
//   reply), so http/ and mcp/ never import each other. The one exception is the
//   server root, src/http/app.ts, which builds the one Fastify server and mounts
//   the MCP door through its single entry, src/mcp/register-mcp.ts.
// - config/ is read once at start; only entry points import it.
// - Entry points: container.ts (the composition root), main.ts (serve) and
//   cli/ (the newsindex command). No layer imports them, so they are not in
//   LAYERS; only container.ts may import adapters.

const LAYERS = {
  shared: [],
  domain: ["shared"],
  ports: ["shared", "domain"],
  schemas: ["shared", "domain"],
  services: ["shared", "domain", "ports", "schemas"],
  operations: ["shared", "domain", "ports", "schemas", "services"],
  transport: ["shared", "domain", "ports", "schemas", "services", "operations"],
  http: ["shared", "domain", "ports", "schemas", "services", "operations", "transport"],
  mcp: ["shared", "domain", "ports", "schemas", "services", "operations", "transport"],
  // Background work (watch runs, webhook deliveries): a watch run is a /stories call, so jobs reuse its operation.
  jobs: ["shared", "domain", "ports", "schemas", "services", "operations"],
  adapters: ["shared", "domain", "ports"],
  config: ["shared", "domain"],
};

/** Single files allowed one import more than their folder; each says why. */
const EXCEPTIONS = [
  // The server root mounts the MCP door (see above).
  { layer: "http", from: "^src/http/app\\.ts$", to: "^src/mcp/register-mcp\\.ts$" },
  // The story clustering thread's entry is that thread's composition root: it
  // wires its own stories.db store to the same StoryClusterer the ingest uses.
  {
    layer: "adapters",
    from: "^src/adapters/sqlite/cluster-worker\\.ts$",
    to: "^src/services/stories/story-clusterer\\.ts$",
  },
];

const folder = (name) => `^src/${name}/`;
const either = (patterns) => `(${patterns.join("|")})`;

function layerRule(layer, exception) {
  const allowed = LAYERS[layer];
  const exempt = EXCEPTIONS.filter((e) => e.layer === layer && e !== exception).map((e) => e.from);
  const from = exception
    ? { path: exception.from }
    : { path: folder(layer), ...(exempt.length > 0 ? { pathNot: either(exempt) } : {}) };
  return {
    name: `${layer}-imports-only-${[layer, ...allowed].join("-")}${exception ? "-plus-exception" : ""}`,
    comment: `src/${layer}/ may import only ${[layer, ...allowed].join(", ")}${exception ? ` (and ${exception.to})` : ""}.`,
    severity: "error",
    from,
    to: {
      path: "^src/",
      // Adapters are left to adapters-only-in-composition-root, so one bad import gives one clear message.
      pathNot: either([...[layer, ...allowed, "adapters"].map(folder), ...(exception ? [exception.to] : [])]),
    },
  };
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...Object.keys(LAYERS).map((layer) => layerRule(layer)),
    ...EXCEPTIONS.map((exception) => layerRule(exception.layer, exception)),
    {
      name: "adapters-only-in-composition-root",
      comment: "Adapters are picked in src/container.ts; everything else sees ports. Unit tests wire real adapters themselves.",
      severity: "error",
      from: { path: "^src/", pathNot: either(["^src/container\\.ts$", folder("adapters"), "\\.test\\.ts$"]) },
      to: { path: folder("adapters") },
    },
  ],
  options: {
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    exclude: { path: "\\.d\\.ts$" },
  },
};
