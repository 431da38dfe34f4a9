// POST /api/destinations/:id/disable — stop sending to a destination (queued events are skipped, not sent)
import { operatorRoute } from "@/lib/http/operator-route";
import { setDestinationEnabledAction } from "@/lib/outbound/actions";
import { destinationParamsSchema } from "@/lib/outbound/contracts";

export const dynamic = "force-dynamic";

export const POST = operatorRoute({ role: "admin", params: destinationParamsSchema }, async ({ params, actor }) =>
  setDestinationEnabledAction(params.id, false, actor),
);
