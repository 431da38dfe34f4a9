// GET /api/operations/history — operation runs of every kind, newest first, keyset-paged
import { historyQuerySchema } from "@/lib/operations/contracts";
import { listRuns } from "@/lib/operations/history";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer", query: historyQuerySchema }, ({ query }) => listRuns(query));
