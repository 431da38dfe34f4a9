// GET /api/operations — recent operation runs (newest first), optionally of one kind
import { operatorRoute } from "@/lib/http/operator-route";
import { runListQuerySchema } from "@/lib/operations/contracts";
import { listRuns } from "@/lib/operations/history";

export const dynamic = "force-dynamic";

export const GET = operatorRoute({ role: "viewer", query: runListQuerySchema }, async ({ query }) => ({
  items: (await listRuns({ kind: query.kind, limit: query.limit })).items,
}));
