// POST /api/destinations/:id/enable — send to a disabled destination again (events from now on)
import { operatorRoute } from "@/lib/http";
import { destinationParamsSchema, destinationSchema, setDestinationEnabledAction } from "@/lib/outbound";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Send to a disabled destination again (events from now on)",
    answer: destinationSchema,
    errors: [404, 409],
    params: destinationParamsSchema,
  },
  async ({ params, actor }) => setDestinationEnabledAction(params.id, true, actor),
);
