// GET /api/operations/history — operation runs of every kind, newest first, keyset-paged
import { historyQuerySchema } from "@/lib/dashboard/contracts/operations";
import { listRuns } from "@/lib/dashboard/operations-view";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ query: historyQuerySchema }, ({ query }) => listRuns(query));
