// npm run api:client — writes lib/api-client/schema.d.ts, the typed client's types, from docs/openapi.json.
// Run it after `npm run docs:openapi`; test/api-client.test.ts fails until the committed file matches.
import { readFileSync, writeFileSync } from "node:fs";
import { API_CLIENT_TYPES, apiClientTypes, OPENAPI_DOCUMENT } from "./api-client/generate";

async function main() {
  const text = await apiClientTypes(readFileSync(OPENAPI_DOCUMENT, "utf8"));
  const current = (() => {
    try {
      return readFileSync(API_CLIENT_TYPES, "utf8");
    } catch {
      return undefined;
    }
  })();
  if (current === text) return console.log(`${API_CLIENT_TYPES} is up to date`);
  writeFileSync(API_CLIENT_TYPES, text);
  console.log(`wrote ${API_CLIENT_TYPES} (${text.length} bytes) from ${OPENAPI_DOCUMENT}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
