import { version } from "../../package.json";
import { buildOpenApiDocument } from "./document";
import { renderMarkdown } from "./markdown";
import { collectApiRoutes } from "./routes";

export const OPENAPI_JSON = "docs/openapi.json";
export const API_REFERENCE_MD = "docs/api-reference.md";

/** The generated files' text by path, from the route modules `load` imports. */
export async function openApiFiles(
  load: (file: string) => Promise<Record<string, unknown>>,
): Promise<Record<string, string>> {
  const doc = buildOpenApiDocument(await collectApiRoutes(load), { version });
  return {
    [OPENAPI_JSON]: `${JSON.stringify(doc, null, 2)}\n`,
    [API_REFERENCE_MD]: renderMarkdown(JSON.parse(JSON.stringify(doc))),
  };
}
