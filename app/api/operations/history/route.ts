// GET /api/operations/history — operation runs of every kind, newest first, keyset-paged
import { historyPageSchema, historyQuerySchema, listRuns } from "@/lib/operations";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Operation runs of every kind, newest first, keyset-paged",
    answer: historyPageSchema,
    query: historyQuerySchema,
  },
  ({ query }) => listRuns(query),
);
