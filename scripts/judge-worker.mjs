// Bundles lib/judging/worker.ts, the judging pool's thread entry (issue 47), into one ES module:
// `npm run build` writes <distDir>/tally-judge-worker.mjs beside the server; a process started from
// the sources (tsx scripts, vitest) calls freshJudgeWorker() and gets a bundle of the code as it is now,
// kept under node_modules/.cache by the hash of its text. Packages stay external (resolved from
// node_modules at run time); lib/ modules have no side effects, so only the pure code the tasks use is
// kept (no database client, no Next).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const LIB = path.join(root, "lib") + path.sep;
export const judgeWorkerEntry = path.join(root, "lib", "judging", "worker.ts");

const plugins = [
  {
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
];

/** The bundle's text. */
export async function bundleJudgeWorker() {
  const out = await build({
    entryPoints: [judgeWorkerEntry],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    absWorkingDir: root,
    logLevel: "warning",
    plugins,
  });
  return out.outputFiles[0].text;
}

/** Writes the bundle to `outfile` (`npm run build`). */
export async function writeJudgeWorker(outfile) {
  const text = await bundleJudgeWorker();
  writeFileSync(outfile, text);
  return outfile;
}

/** A bundle of the current sources under node_modules/.cache/tally, named by its hash; its path. */
export async function freshJudgeWorker() {
  const text = await bundleJudgeWorker();
  const dir = path.join(root, "node_modules", ".cache", "tally");
  const file = path.join(dir, `judge-worker-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, file);
  }
  return file;
}
