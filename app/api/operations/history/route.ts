// GET /api/operations/history — operation runs of every kind, newest first, keyset-paged
import { historyPageSchema, historyQuerySchema } from "@/lib/operations/contracts";
import { listRuns } from "@/lib/operations/history";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Operation runs of every kind, newest first, keyset-paged",
    answer: historyPageSchema,
    query: historyQuerySchema,
  },
  ({ query }) => listRuns(query),
);
