// Where `npm run build` puts Tally's server (server.ts bundled next to Next's output): the one place
// that names it, for the build, the tests, the e2e server, the chaos run and the bench.
import path from "node:path";

export const distDir = process.env.NEXT_DIST_DIR || ".next";
export const serverBundle = path.resolve(distDir, "tally-server.mjs");
