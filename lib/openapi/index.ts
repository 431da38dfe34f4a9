// The API description: docs/openapi.json and docs/api-reference.md, generated from the routes' own
// descriptions (lib/http/route-doc.ts) by `npm run docs:openapi`.
export {
  apiPathOf,
  buildOpenApiDocument,
  errorStatusesOf,
  HTTP_METHODS,
  type ApiRoute,
  type HttpMethod,
} from "./document";
export { API_REFERENCE_MD, OPENAPI_JSON, openApiFiles } from "./files";
export { renderMarkdown } from "./markdown";
export { API_ROOT, collectApiRoutes, findRouteFiles } from "./routes";
