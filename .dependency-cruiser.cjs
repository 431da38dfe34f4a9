// The layering rules `npm test` enforces (npx depcruise --config .dependency-cruiser.cjs …).
// Which modules are client components and which are server modules is read from the files
// themselves ("use client" directive; `import "server-only"`), so the rules follow the code.
const fs = require("node:fs");
const path = require("node:path");

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}
const sources = ["app", "components", "lib"].flatMap(walk).map((p) => p.split(path.sep).join("/"));
const head = (file) => fs.readFileSync(file, "utf8").slice(0, 4000);
const anyOf = (files) =>
  files.length ? `^(${files.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$` : "^$";
const clientComponents = sources.filter((f) => /^\s*(\/\/[^\n]*\n\s*)*["']use client["']/.test(head(f)));
const serverModules = sources.filter((f) => /^import ["']server-only["'];?$/m.test(head(f)));

const TESTS = "\\.test(-util)?\\.ts$";
/** A folder's surfaces: index.ts (everything other folders use), client.ts (what client components may load), contract.ts (lib/platform: the platform's API alone, for the simulator). */
const SURFACE = "^lib/[^/]+/(index|client|contract)\\.ts$";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "No import cycles anywhere: start order and module state must not depend on import order.",
      from: { path: "^(app|components|lib|scripts)/|^server\\.ts$" },
      to: { circular: true },
    },
    {
      name: "no-deep-import",
      severity: "error",
      comment:
        "A lib/ folder is used through its surface (index.ts, client.ts, contract.ts) from outside it; inside, its files import each other directly. Tests may reach inside.",
      from: { path: "^(app|components|scripts)/|^server\\.ts$|^lib/[^/]+\\.tsx?$", pathNot: TESTS },
      to: { path: "^lib/[^/]+/", pathNot: SURFACE },
    },
    {
      name: "no-deep-import",
      severity: "error",
      comment: "From one lib/ folder into another: through the other's surface only.",
      from: { path: "^lib/([^/]+)/", pathNot: TESTS },
      to: { path: "^lib/(?!$1/)[^/]+/", pathNot: SURFACE },
    },
    {
      name: "lib-is-framework-free",
      severity: "error",
      comment: "The domain (lib/) never imports the app's routes and pages or the UI.",
      from: { path: "^lib/" },
      to: { path: "^(app|components)/" },
    },
    {
      name: "client-imports-server-for-types-only",
      severity: "error",
      comment:
        "A client component may take types from a server module, never code (it would ship server code to the browser, or fail the build).",
      from: { path: anyOf(clientComponents) },
      to: { path: anyOf(serverModules), dependencyTypesNot: ["type-only"] },
    },
    {
      name: "simulator-only-in-demo-start",
      severity: "error",
      comment:
        "The pipeline never talks to the simulator directly: only demo mode's start-up runs it (tests and scripts may).",
      from: {
        path: "^(app|components|lib)/|^server\\.ts$",
        pathNot: [`^lib/simulator/`, "^lib/demo/start\\.ts$", TESTS],
      },
      to: { path: "^lib/simulator/" },
    },
    {
      name: "platform-is-a-leaf",
      severity: "error",
      comment:
        "lib/platform/ speaks to the platform and knows nothing of Tally's capabilities above it (metrics/ counts its calls, like log.ts logs them, tracing/ spans them; runtime/ keeps the client once per process).",
      from: { path: "^lib/platform/", pathNot: TESTS },
      to: {
        path: "^lib/(?!platform/|config\\.ts$|db\\.ts$|errors\\.ts$|log\\.ts$|metrics/index\\.ts$|runtime/index\\.ts$|tracing/index\\.ts$)",
      },
    },
    {
      name: "metrics-is-a-leaf",
      severity: "error",
      comment:
        "lib/metrics/ is counted into from everywhere, so it depends on nothing of Tally but the database, config, log and the singleton helper.",
      from: { path: "^lib/metrics/", pathNot: TESTS },
      to: { path: "^lib/(?!metrics/|config\\.ts$|db\\.ts$|log\\.ts$|runtime/index\\.ts$)" },
    },
    {
      name: "simulator-stands-alone",
      severity: "error",
      comment:
        "The simulator imitates the platform from its contract (lib/platform/contract.ts, lib/signing), never from Tally's state.",
      from: { path: "^lib/simulator/", pathNot: TESTS },
      to: {
        path: "^lib/(?!simulator/|platform/contract\\.ts$|signing/index\\.ts$)",
      },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "Every import resolves.",
      from: {},
      to: { couldNotResolve: true, pathNot: "^(server-only|node:.*)$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|generated|\\.next)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
