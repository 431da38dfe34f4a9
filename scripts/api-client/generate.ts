// The typed client's types (lib/api-client/schema.d.ts) from the OpenAPI document: openapi-typescript
// on the local file (offline; the same document always gives the same text), formatted by the repo's
// Prettier so the committed file passes `npm run format:check` as written.
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { format, resolveConfig } from "prettier";

export const OPENAPI_DOCUMENT = "docs/openapi.json";
export const API_CLIENT_TYPES = "lib/api-client/schema.d.ts";

const HEADER = `// Generated from ${OPENAPI_DOCUMENT} by \`npm run api:client\` (openapi-typescript): do not edit.
// test/api-client.test.ts fails while this file differs from what the document gives.`;

/** What `npm run api:client` writes to API_CLIENT_TYPES, from the document's text. */
export async function apiClientTypes(documentText: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(documentText), { silent: true });
  const filepath = path.resolve(API_CLIENT_TYPES);
  const options = await resolveConfig(filepath);
  return format(`${HEADER}\n\n${astToString(ast)}`, { ...options, filepath });
}
