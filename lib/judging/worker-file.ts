import "server-only";
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

// Where a judging thread's code is. In a checkout (tsx scripts, vitest, `npm start` from the sources)
// scripts/judge-worker.mjs bundles lib/judging/worker.ts as it is now (cached by hash, about 0.1 s the
// first time); where the sources are not shipped (the container image), `npm run build` left
// <distDir>/tally-judge-worker.mjs beside the server bundle.

export const BUILT_WORKER = "tally-judge-worker.mjs";

export async function judgeWorkerFile(): Promise<string> {
  const root = process.cwd();
  const script = path.join(root, "scripts", "judge-worker.mjs");
  if (existsSync(script) && existsSync(path.join(root, "lib", "judging", "worker.ts"))) {
    try {
      const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ pathToFileURL(script).href)) as {
        freshJudgeWorker: () => Promise<string>;
      };
      return await mod.freshJudgeWorker();
    } catch {
      // No bundler here (esbuild is a build-time package): the built file below, if there is one.
    }
  }
  // eslint-disable-next-line no-restricted-properties -- the build's own folder, as next.config.js reads it
  const built = path.join(root, process.env.NEXT_DIST_DIR || ".next", BUILT_WORKER);
  if (existsSync(built)) return built;
  throw new Error(
    `the judging pool's code is missing: neither scripts/judge-worker.mjs nor ${path.relative(root, built)} (run npm run build)`,
  );
}
