// GET /api/operations — recent operation runs (newest first), optionally of one kind
import { operatorRoute } from "@/lib/http/operator-route";
import { runListQuerySchema } from "@/lib/operations/schemas";
import { listRuns } from "@/lib/operations/view";

export const dynamic = "force-dynamic";

export const GET = operatorRoute({ query: runListQuerySchema }, async ({ query }) => ({ items: await listRuns(query) }));
