// GET /api/operations/:runId — one run: {id, kind, state, progress, summary, …}
import { operatorRoute } from "@/lib/http";
import { getRunOr404, runParamsSchema, runViewSchema } from "@/lib/operations";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One operation run: kind, state, progress, summary",
    answer: runViewSchema,
    errors: [404],
    params: runParamsSchema,
  },
  ({ params }) => getRunOr404(params.runId),
);
