// POST /api/destinations/:id/disable — stop sending to a destination (queued events are skipped, not sent)
import { operatorRoute } from "@/lib/http";
import { destinationParamsSchema, destinationSchema, setDestinationEnabledAction } from "@/lib/outbound";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Stop sending to a destination (queued events are skipped, not sent)",
    answer: destinationSchema,
    errors: [404, 409],
    params: destinationParamsSchema,
  },
  async ({ params, actor }) => setDestinationEnabledAction(params.id, false, actor),
);
