// Bundles server.ts (Tally's HTTP server: the receiver on bare node:http, Next for the rest) into
// <distDir>/tally-server.mjs, run by `npm start`. Packages stay external; `server-only` becomes empty
// because this bundle is server code by construction (Next enforces the marker in its own bundles).
// The same way, scripts/prepare.ts (the migrations `npm start` runs first) and scripts/worker.ts
// (`npm run worker`) become tally-prepare.mjs and tally-worker.mjs, and scripts/sim.ts (`npm run sim`)
// tally-sim.mjs, which the container image runs with plain Node (it ships no sources and no
// TypeScript loader).
import path from "node:path";
import { build } from "esbuild";

const LIB = path.resolve("lib") + path.sep;
import { writeJudgeWorker } from "./judge-worker.mjs";
import { distDir, serverBundle as outfile } from "./server-bundle.mjs";

const bundles = [
  ["server.ts", outfile],
  ["scripts/prepare.ts", path.join(distDir, "tally-prepare.mjs")],
  ["scripts/worker.ts", path.join(distDir, "tally-worker.mjs")],
  // The simulator as a process of its own (`npm run sim`): the platform of compose.yaml's demo.
  ["scripts/sim.ts", path.join(distDir, "tally-sim.mjs")],
];
const options = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      // lib/'s folders are used through their surfaces (index.ts re-exports a whole folder); no lib/
      // module acts on being imported, so the bundle keeps only the modules the server actually uses
      // (without this it would carry Next's route wrappers, which plain Node cannot load).
      name: "lib-has-no-side-effects",
      setup(b) {
        b.onResolve({ filter: /^(\.|@\/)/ }, async (args) => {
          if (args.pluginData === "lib-has-no-side-effects") return undefined;
          const r = await b.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: "lib-has-no-side-effects",
          });
          if (r.errors.length > 0) return { errors: r.errors };
          return { ...r, sideEffects: r.path.startsWith(LIB) ? false : r.sideEffects };
        });
      },
    },
    {
      name: "server-only",
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
        b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
      },
    },
  ],
};
for (const [entry, file] of bundles) {
  await build({ ...options, entryPoints: [entry], outfile: file, sourcemap: entry === "server.ts" });
  console.log(`built ${path.relative(process.cwd(), file)}`);
}
// The judging pool's thread code (lib/judging/worker-file.ts finds it here where the sources are not shipped).
const judgeWorker = await writeJudgeWorker(path.join(distDir, "tally-judge-worker.mjs"));
console.log(`built ${path.relative(process.cwd(), judgeWorker)}`);
