// The files the container image runs, copied into one folder (the Dockerfile's build stage runs this
// after `npm run build`): what `npm start` needs at run time and nothing else.
//
// - Next's build output (.next) without its caches, traces and source maps;
// - of node_modules, only the files something loads: Next writes the files its server and each route
//   need (`*.nft.json`, as for its standalone output); the rest is traced here with the same tracer
//   (@vercel/nft, shipped inside Next) from the bundles Tally runs: the server, the judging thread,
//   the migration step and the worker, and Prisma's CLI (which `prepare` runs for the migrations);
// - what is read from the working folder at run time: package.json (package resolution from it),
//   next.config.js and the headers it reads, prisma.config.ts and prisma/ (the CLI's configuration,
//   and the migrations the readiness check compares with the database).
//
// Usage: node scripts/image-files.mjs OUT
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const out = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) {
  console.error("usage: node scripts/image-files.mjs OUT");
  process.exit(2);
}
const root = process.cwd();
const dist = ".next";
const require = createRequire(path.join(root, "package.json"));
const { nodeFileTrace } = require("next/dist/compiled/@vercel/nft");

// Packages loaded by file name, which no tracer sees: the TypeScript configuration prisma.config.ts
// loads through c12 and jiti, and the adapters it imports.
const WHOLE_PACKAGES = ["c12", "jiti", "@prisma/adapter-better-sqlite3", "@prisma/adapter-pg", "pg"];
// Never needed at run time: Next's image optimiser (Tally serves no optimised images), compilers
// (Prisma's CLI names TypeScript, the judging pool's source path esbuild: the image runs the built
// bundles), the sources' scripts, Prisma's query engines (Tally uses its query compiler, `engineType =
// "client"`) and the compilers of the databases Tally does not run on, type declarations, source maps.
const NEVER = [
  /^node_modules\/(@img|sharp|typescript|esbuild|@esbuild)\//,
  /^node_modules\/@next\/swc-/,
  /^scripts\//,
  /^node_modules\/@prisma\/client\/runtime\/(query_engine_bg\.|query_compiler_bg\.(mysql|sqlserver|cockroachdb)\.)/,
  /\.d\.[cm]?ts$/,
  /\.map$/,
];

const files = new Set();
// A file is kept under its real path (a route's trace may name it through .next/node_modules' links);
// a link is kept as a link, with what it points to.
const add = (file) => {
  const abs = path.resolve(root, file);
  if (!existsSync(abs)) return;
  const link = lstatSync(abs).isSymbolicLink();
  const rel = path.relative(root, link ? abs : realpathSync(abs));
  if (rel.startsWith("..") || NEVER.some((re) => re.test(rel)) || files.has(rel)) return;
  files.add(rel);
  if (link && statSync(abs).isFile()) add(realpathSync(abs));
};

function walk(dir, visit) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, visit);
    else visit(p, entry);
  }
}

// 1. Next's own traces, and the build output itself.
const SKIP_DIST = new Set(
  ["cache", "trace", "trace-build", "diagnostics", "types", "standalone"].map((d) => path.join(dist, d)),
);
function walkDist(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (SKIP_DIST.has(p)) continue;
    if (entry.isDirectory()) walkDist(p);
    else if (entry.name.endsWith(".nft.json")) {
      const { files: traced } = JSON.parse(readFileSync(p, "utf8"));
      for (const f of traced) add(path.join(path.dirname(p), f));
    } else add(p); // symlinks too: .next/node_modules links the externals' hashed names to node_modules
  }
}
walkDist(dist);

// 2. Tally's own entry points and Prisma's CLI, traced.
const entries = [
  "tally-server.mjs",
  "tally-judge-worker.mjs",
  "tally-prepare.mjs",
  "tally-worker.mjs",
  "tally-sim.mjs",
].map((f) => path.join(dist, f));
// Prisma's CLI, and the module prisma.config.ts imports from it.
entries.push("node_modules/prisma/build/index.js", "node_modules/prisma/config.js");
for (const e of entries) if (!existsSync(e)) throw new Error(`${e} is missing: run npm run build first`);
const { fileList } = await nodeFileTrace(entries, { base: root, processCwd: root });
for (const f of fileList) add(f);

// 3. What Next resolves (never loads) when it reads next.config.js without its standalone server: the
// webpack hook's replacement paths, named in its config-utils.js as strings.
const configUtils = readFileSync(require.resolve("next/dist/server/config-utils.js"), "utf8");
for (const [, spec] of configUtils.matchAll(/'(next\/dist\/compiled\/[^']+)'/g)) add(require.resolve(spec));

// 4. Whole packages, and the working folder's own files.
// Prisma's CLI reads its engine's WebAssembly by file name.
add("node_modules/prisma/build/schema_engine_bg.wasm");
for (const name of WHOLE_PACKAGES) {
  walk(path.join("node_modules", name), (p) => add(p));
}
for (const f of ["package.json", "next.config.js", "lib/http/security-headers.json", "prisma.config.ts"]) add(f);
walk("prisma", (p) => add(p));

// Copy, keeping symlinks as they are (each one's target is in the list too).
let bytes = 0;
for (const rel of [...files].sort()) {
  const dest = path.join(out, rel);
  mkdirSync(path.dirname(dest), { recursive: true });
  const st = lstatSync(rel);
  if (st.isSymbolicLink()) symlinkSync(readlinkSync(rel), dest);
  else if (st.isFile()) {
    cpSync(rel, dest, { preserveTimestamps: true });
    bytes += statSync(rel).size;
  }
}
console.log(`image files: ${files.size} files, ${(bytes / 1e6).toFixed(1)} MB in ${path.relative(root, out) || out}`);
