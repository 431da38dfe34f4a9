// GET /api/outbound/health — each destination's success rate, deliveries by status, last success and last error
import { healthListSchema } from "@/lib/outbound/contracts";
import { operatorRoute } from "@/lib/http/operator-route";
import { destinationHealth } from "@/lib/outbound/health";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Each destination's success rate, deliveries by status, last success and last error",
    answer: healthListSchema,
  },
  async ({ principal }) => ({ items: await destinationHealth(new Date(), principal.role) }),
);
