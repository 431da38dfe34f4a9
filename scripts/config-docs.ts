// npm run docs:config: writes docs/configuration.md from lib/config.ts's envSchema (its descriptions,
// defaults and allowed values). Run it after adding or changing a variable; test/config-docs.test.ts
// fails while the file differs from what this writes, or while a variable has no description.
import { readFileSync, writeFileSync } from "node:fs";
import { CONFIG_DOCS_PATH, renderConfigDocs } from "./config-docs/render";

const rendered = renderConfigDocs();
let current: string | undefined;
try {
  current = readFileSync(CONFIG_DOCS_PATH, "utf8");
} catch {
  current = undefined;
}
if (current === rendered) {
  process.stdout.write(`${CONFIG_DOCS_PATH} is up to date\n`);
} else {
  writeFileSync(CONFIG_DOCS_PATH, rendered);
  process.stdout.write(`wrote ${CONFIG_DOCS_PATH}\n`);
}
