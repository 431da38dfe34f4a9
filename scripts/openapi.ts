// npm run docs:openapi — writes docs/openapi.json (the OpenAPI 3.1 description GET /api/openapi.json
// serves) and docs/api-reference.md from the descriptions every route under app/api carries. Run it
// after changing a route or a contract; test/openapi.test.ts fails until the committed files match.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { openApiFiles } from "@/lib/openapi";

async function main() {
  const files = await openApiFiles((file) => import(pathToFileURL(path.resolve(file)).href));
  for (const [file, text] of Object.entries(files)) {
    writeFileSync(file, text);
    console.log(`wrote ${file} (${text.length} bytes)`);
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
