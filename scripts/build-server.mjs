// Bundles server.ts (Tally's HTTP server: the receiver on bare node:http, Next for the rest) into
// <distDir>/tally-server.mjs, run by `npm start`. Packages stay external; `server-only` becomes empty
// because this bundle is server code by construction (Next enforces the marker in its own bundles).
import path from "node:path";
import { build } from "esbuild";
import { serverBundle as outfile } from "./server-bundle.mjs";

await build({
  entryPoints: ["server.ts"],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      name: "server-only",
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
        b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
      },
    },
  ],
});
console.log(`built ${path.relative(process.cwd(), outfile)}`);
