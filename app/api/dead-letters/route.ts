// GET /api/dead-letters — dead letters matching a filter (state, kind, errorCode, jobId), newest first, keyset pages
import { deadLetterListQuerySchema, listDeadLetters } from "@/lib/dead-letters";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Dead letters matching a filter, newest first, keyset-paged",
    query: deadLetterListQuerySchema,
  },
  ({ query }) => listDeadLetters(query),
);
