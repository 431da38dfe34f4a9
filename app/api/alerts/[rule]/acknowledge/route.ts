// POST /api/alerts/{rule}/acknowledge — "someone is on it": no repeats of the current firing; cleared when it resolves
import { z } from "zod";
import { acknowledgeAlert, ackResultSchema } from "@/lib/alerts";
import { operatorRoute } from "@/lib/http";

const params = z.object({ rule: z.string().max(64) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Acknowledge a firing alert: no repeats are sent until it resolves (the resolved still is)",
    answer: ackResultSchema,
    errors: [404, 409],
    params,
  },
  ({ params, actor }) => acknowledgeAlert(params.rule, actor),
);
