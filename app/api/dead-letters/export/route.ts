// GET /api/dead-letters/export — dead letters as a streamed CSV download, with the list's filter (state, kind, errorCode, jobId)
import { exportDeadLetters } from "@/lib/dead-letters/export";
import { deadLetterFilterSchema } from "@/lib/dead-letters/list";
import { operatorRoute } from "@/lib/http/operator-route";
import { csvResponse } from "@/lib/results/csv-stream";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Dead letters as a streamed CSV download, with the list's filter",
    produces: "csv",
    query: deadLetterFilterSchema,
  },
  async ({ query }) => csvResponse(await exportDeadLetters(query)),
);
