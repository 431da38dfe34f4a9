// GET /api/openapi.json — this API's OpenAPI 3.1 description (docs/openapi.json, written by `npm run docs:openapi`
// from the routes' zod contracts; test/openapi.test.ts keeps it equal to what the code says)
import document from "@/docs/openapi.json";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  { role: "viewer", summary: "This API's OpenAPI 3.1 description (what docs/api-reference.md renders)" },
  async () => document,
);
