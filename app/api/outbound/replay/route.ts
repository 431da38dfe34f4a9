// POST /api/outbound/replay — {deliveryId} or {destinationId, since}: send failed events again now (audited)
import { operatorRoute } from "@/lib/http";
import { replayAction, replayBodySchema, replayResultSchema } from "@/lib/outbound";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Send failed outbound events again now: one delivery, or a destination's since a time",
    answer: replayResultSchema,
    errors: [404, 409],
    body: replayBodySchema,
  },
  async ({ body, actor }) => replayAction(body, actor),
);
