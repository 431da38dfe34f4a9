import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const config = [
  ...nextVitals,
  ...nextTs,
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      "generated/**",
      "node_modules/**",
      "data/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through lib/config.ts" },
      ],
    },
  },
  {
    // The config module, start-up files, scripts and tests may read or pass the environment.
    files: [
      "lib/config.ts",
      "instrumentation.ts",
      "prisma.config.ts",
      "vitest.postgres.config.mts",
      "scripts/**",
      "test/**",
      "e2e/**",
      "bench/**",
      "playwright.config.ts",
      "server.ts",
      "**/*.test.ts",
    ],
    rules: { "no-restricted-properties": "off" },
  },
  {
    // One writer (docs/operations/database.md#one-writer-at-a-time-on-sqlite): the app's SQLite connection is
    // lib/db.ts's alone, and every statement on it takes its turn there. Elsewhere in the app, only
    // modules that open a connection of their own (the receiver's, a stopped file's) or that db.ts
    // hands its connection to (checkpoints, the statement cache) may load the driver.
    files: ["lib/**", "app/**", "components/**", "server.ts", "instrumentation.ts", "proxy.ts"],
    ignores: [
      "lib/db.ts",
      "lib/runtime/sqlite-*.ts",
      "lib/webhooks/store-sqlite.ts",
      "lib/db-copy/source.ts",
      "lib/results/seed.test-util.ts",
      "**/*.test.ts",
    ],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["better-sqlite3", "@prisma/adapter-better-sqlite3"].map((name) => ({
            name,
            message:
              "The app's SQLite connection is lib/db.ts's alone: use db(), transaction(), directQuery() or directSqliteTransaction().",
          })),
        },
      ],
    },
  },
  {
    // Configuration files Node loads as CommonJS, as they are.
    files: ["**/*.cjs", "next.config.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
