// GET /api/runs/:runId/urls — the run's URLs in list order (state, cursor, limit)
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { listRunUrls, runUrlPageSchema, runUrlsQuerySchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The run's URLs in list order, optionally in one state, keyset-paged",
    params,
    query: runUrlsQuerySchema,
    answer: runUrlPageSchema,
    errors: [404],
  },
  ({ params, query }) => listRunUrls(params.runId, query),
);
