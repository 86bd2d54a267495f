// The layering of src/, checked by `npm test` (npm run check:layers) and proven to
// fail on a bad import by test/architecture/dependency-rule.test.ts.
//
//   shared <- domain <- {ports, schemas} <- usecases <- app <- http/reply <- {http (REST), http/mcp}
//                                                       app <- {workers, http/console}
//
// Each layer may import only itself and the layers listed for it in LAYERS;
// type-only imports count like any other. What each holds:
//
// - domain/: pure types and rules (the Article, plans, prices and billing
//   rules, the query language, vocabularies). ports/: the interfaces adapters
//   implement. schemas/: the public contract in TypeBox; use cases name their
//   responses by it (Static<>), and both doors derive from it.
// - usecases/: what the product does, by area (search, stories, entities,
//   aggregate, graph, accounts, watches, ingest, embedding), transport-neutral;
//   usecases/query-kernel/ is what every area that reads the index shares
//   (coverage, the plan's window, the query budget).
// - app/: the metered call. The operations registry (one descriptor per
//   endpoint), run-operation.ts (key, suspension, validation, price, run,
//   charge), request parsing into use-case inputs (app/requests/), and the
//   charged background work (app/watch-runs/: watch runs, webhook deliveries).
// - workers/: periodic loops a server runs beside HTTP (the watch scheduler,
//   the embedding follower); they start app/ and usecases/ work on a timer.
// - http/: the one Fastify server. Its REST door (the files directly in
//   http/), the MCP door (http/mcp/) and what both share (http/reply/: the
//   presented key, the JSON error reply and the one error plugin). The doors
//   never import each other, except the server root, src/http/app.ts, which
//   mounts the MCP door through its single entry, src/http/mcp/register-mcp.ts.
// - http/console/: the console, a second Fastify server of the same process on
//   a port of its own (server-rendered pages for operators and tenant users).
//   It calls use cases and the metered call (app/) in-process, like a door, and
//   imports neither door nor http/reply/ (its answers are pages, not JSON).
// - adapters/ implement ports: they import shared, domain and ports, and are
//   imported only by the composition root, src/container.ts. Unit tests
//   (*.test.ts) are their own composition roots and may import adapters too:
//   tests run on real parts.
// - Adapter folders (src/adapters/<name>/: sqlite, postgres, onnx, gdelt,
//   webhooks) never import one another: an index or store adapter reaches a
//   model or a parser through a port the composition root fills. They share
//   only the thread plumbing (src/adapters/threads/) and the row mappings at
//   src/adapters/*.ts that the two control stores have in common.
// - domain/ is pure: of npm packages and Node built-ins it imports only those
//   in DOMAIN_PACKAGES, none of which touches a file, a socket or a process.
// - config/ is read once at start; only entry points import it.
// - Entry points: container.ts (the composition root), serve.ts (the server's
//   lifecycle) and cli/ (the newsindex command, cli/main.ts). No layer imports
//   them, so they are not in LAYERS; only container.ts may import adapters.

/** Where each layer's files are: a folder, or for the REST door the files directly in src/http/. */
const PATHS = {
  shared: "^src/shared/",
  domain: "^src/domain/",
  ports: "^src/ports/",
  schemas: "^src/schemas/",
  usecases: "^src/usecases/",
  app: "^src/app/",
  workers: "^src/workers/",
  "http/reply": "^src/http/reply/",
  http: "^src/http/[^/]+$",
  "http/mcp": "^src/http/mcp/",
  "http/console": "^src/http/console/",
  adapters: "^src/adapters/",
  config: "^src/config/",
};

const LAYERS = {
  shared: [],
  domain: ["shared"],
  ports: ["shared", "domain"],
  schemas: ["shared", "domain"],
  usecases: ["shared", "domain", "ports", "schemas"],
  app: ["shared", "domain", "ports", "schemas", "usecases"],
  workers: ["shared", "domain", "ports", "schemas", "usecases", "app"],
  "http/reply": ["shared", "domain", "ports", "schemas", "usecases", "app"],
  http: ["shared", "domain", "ports", "schemas", "usecases", "app", "http/reply"],
  "http/mcp": ["shared", "domain", "ports", "schemas", "usecases", "app", "http/reply"],
  "http/console": ["shared", "domain", "ports", "schemas", "usecases", "app"],
  adapters: ["shared", "domain", "ports"],
  config: ["shared", "domain"],
};

/** The npm packages and Node built-ins domain/ may import: computation only (its tests add the test runner). */
const DOMAIN_PACKAGES = ["geolib", "ngeohash", "ipaddr.js"];
const DOMAIN_BUILTINS = ["crypto"];

/** Adapter folders holding what every adapter may share. */
const ADAPTER_SHARED = ["threads"];

/** Single files allowed one import more than their folder; each says why. */
const EXCEPTIONS = [
  // The server root mounts the MCP door (see above).
  { layer: "http", from: "^src/http/app\\.ts$", to: "^src/http/mcp/register-mcp\\.ts$" },
  // The story clustering thread's entry is that thread's composition root: it
  // wires its own store (stories.db, or the PostgreSQL state) to the same
  // StoryClusterer the ingest uses.
  {
    layer: "adapters",
    from: "^src/adapters/(sqlite|postgres)/cluster-worker\\.ts$",
    to: "^src/usecases/stories/story-clusterer\\.ts$",
  },
];

const folder = (name) => PATHS[name];
const either = (patterns) => `(${patterns.join("|")})`;

function layerRule(layer, exception) {
  const allowed = LAYERS[layer];
  const exempt = EXCEPTIONS.filter((e) => e.layer === layer && e !== exception).map((e) => e.from);
  const from = exception
    ? { path: exception.from }
    : { path: folder(layer), ...(exempt.length > 0 ? { pathNot: either(exempt) } : {}) };
  return {
    name: `${layer}-imports-only-${[layer, ...allowed].join("-")}${exception ? "-plus-exception" : ""}`,
    comment: `${layer} may import only ${[layer, ...allowed].join(", ")}${exception ? ` (and ${exception.to})` : ""}.`,
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
      name: "adapter-folders-import-no-other-adapter-folder",
      comment:
        "An adapter folder imports only itself, the thread plumbing and the shared row mappings; another adapter is reached through a port. Unit tests wire real adapters themselves.",
      severity: "error",
      from: { path: "^src/adapters/([^/]+)/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^src/adapters/[^/]+/",
        pathNot: either(["^src/adapters/$1/", ...ADAPTER_SHARED.map((name) => `^src/adapters/${name}/`)]),
      },
    },
    {
      name: "domain-imports-only-pure-packages",
      comment: `src/domain/ imports of npm packages and Node built-ins: only ${[...DOMAIN_PACKAGES, ...DOMAIN_BUILTINS].join(", ")}.`,
      severity: "error",
      from: { path: folder("domain"), pathNot: "\\.test\\.ts$" },
      to: {
        pathNot: either([
          "^src/",
          // Resolved (…/node_modules/NAME/…) or, where node_modules is absent, as written.
          ...DOMAIN_PACKAGES.map((name) => `(^|node_modules/)${name.replace(/[.]/g, "\\.")}(/|$)`),
          ...DOMAIN_BUILTINS.map((name) => `^(node:)?${name}$`),
        ]),
      },
    },
    {
      name: "adapters-only-in-composition-root",
      comment: "Adapters are picked in src/container.ts; everything else sees ports. Unit tests wire real adapters themselves.",
      severity: "error",
      from: { path: "^src/", pathNot: either(["^src/container\\.ts$", folder("adapters"), "\\.test\\.ts$"]) },
      to: { path: folder("adapters") },
    },
  ],
  options: {
    // npm packages are seen (for the domain's allowlist) but not walked into.
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    exclude: { path: "\\.d\\.ts$" },
  },
};
