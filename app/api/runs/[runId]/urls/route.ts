// GET /api/runs/:runId/urls — the run's URLs in list order (state, cursor, limit)
import { z } from "zod";
import { operatorRoute } from "@/lib/http/operator-route";
import { listRunUrls, runUrlsQuerySchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute({ role: "viewer", params, query: runUrlsQuerySchema }, ({ params, query }) =>
  listRunUrls(params.runId, query),
);
