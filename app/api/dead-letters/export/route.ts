// GET /api/dead-letters/export — dead letters as a streamed CSV download, with the list's filter (state, kind, errorCode, jobId)
import { deadLetterFilterSchema, exportDeadLetters } from "@/lib/dead-letters";
import { operatorRoute } from "@/lib/http";
import { csvResponse } from "@/lib/results";

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
