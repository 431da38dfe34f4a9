// GET /api/results/export — stored results as a streamed JSONL or CSV download, with the Jobs filters
import { seesInternalDetail } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";
import { exportQuerySchema, exportResults } from "@/lib/results";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Stored results as a streamed JSONL or CSV download, with the Jobs filters",
    produces: "jsonl-or-csv",
    query: exportQuerySchema,
  },
  async ({ query, principal }) => {
    const out = exportResults(query, { detail: seesInternalDetail(principal.role) });
    return new Response(out.body, {
      headers: {
        "content-type": out.contentType,
        "content-disposition": `attachment; filename="${out.filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
);
