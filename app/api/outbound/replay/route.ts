// POST /api/outbound/replay — {deliveryId} or {destinationId, since}: send failed events again now (audited)
import { operatorRoute } from "@/lib/http/operator-route";
import { replayAction } from "@/lib/outbound/actions";
import { replayBodySchema } from "@/lib/outbound/contracts";

export const dynamic = "force-dynamic";

export const POST = operatorRoute({ role: "operator", body: replayBodySchema }, async ({ body, actor }) =>
  replayAction(body, actor),
);
