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
    // Configuration files Node loads as CommonJS, as they are.
    files: ["**/*.cjs", "next.config.js"],
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
];

export default config;
