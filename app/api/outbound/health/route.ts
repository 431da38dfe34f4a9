// GET /api/outbound/health — each destination's success rate, deliveries by status, last success and last error
import { destinationHealth, healthListSchema } from "@/lib/outbound";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Each destination's success rate, deliveries by status, last success and last error",
    answer: healthListSchema,
  },
  async ({ principal }) => ({ items: await destinationHealth(new Date(), principal.role) }),
);
