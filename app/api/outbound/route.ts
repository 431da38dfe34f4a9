// GET /api/outbound?destinationId&status&jobId&cursor&limit — outbound deliveries, newest first
import { operatorRoute } from "@/lib/http";
import { deliveryListQuerySchema, deliveryPageSchema, listDeliveries } from "@/lib/outbound";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Outbound deliveries, newest first, keyset-paged",
    answer: deliveryPageSchema,
    query: deliveryListQuerySchema,
  },
  async ({ query, principal }) => listDeliveries(query, principal.role),
);
