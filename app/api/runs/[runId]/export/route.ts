// GET /api/runs/:runId/export?format=csv|jsonl — one row per URL with its state and stored result, streamed
import { z } from "zod";
import { seesInternalDetail } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";
import { csvResponse, exportRunCsv, exportRunJsonl } from "@/lib/results";
import { runExportQuerySchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One row per URL with its state and stored result, streamed (CSV or JSON Lines)",
    description:
      "`?changes=only` (a collection run): only the URLs that are new or changed since the collection's previous run; 409 before the run is classified.",
    errors: [404, 409],
    params,
    query: runExportQuerySchema,
    produces: "jsonl-or-csv",
  },
  async ({ params, query, principal }) => {
    const filter = { state: query.state, changesOnly: query.changes === "only" };
    const audience = { detail: seesInternalDetail(principal.role) };
    return csvResponse(
      query.format === "jsonl"
        ? await exportRunJsonl(params.runId, filter, audience)
        : await exportRunCsv(params.runId, filter, audience),
    );
  },
);
