// The whole suite, in order, stopping at the first failure: types, lint, layering, migration drift, build,
// unit and integration tests (vitest), then end-to-end tests (Playwright in Chromium).
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";

const steps = [
  ["types", "npx", ["tsc", "--noEmit"]],
  ["lint", "npx", ["eslint", "--max-warnings", "0", "."]],
  ["layering", "npx", ["depcruise", "app", "components", "lib", "scripts", "server.ts", "--config", ".dependency-cruiser.cjs"]],
  [
    "migrations match the schema",
    "npx",
    ["prisma", "migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--exit-code"],
  ],
  ["build", "npm", ["run", "build"]],
  ["unit and integration tests", "npx", ["vitest", "run"]],
  ["chromium", "node", ["scripts/ensure-chromium.mjs"]],
  ["end-to-end tests", "npx", ["playwright", "test"]],
];

mkdirSync("data", { recursive: true });
const started = Date.now();
for (const [name, cmd, args] of steps) {
  const t = Date.now();
  console.log(`\n▶ ${name}: ${cmd} ${args.join(" ")}`);
  const res = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (res.status !== 0) {
    console.error(`\n✗ ${name} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status || 1);
  }
  console.log(`✓ ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
