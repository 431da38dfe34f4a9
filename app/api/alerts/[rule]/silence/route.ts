// POST /api/alerts/{rule}/silence — silence a rule for 5 min to 7 days: still evaluated and recorded, sent nowhere
// DELETE /api/alerts/{rule}/silence — lift the silence
import { z } from "zod";
import { silenceAlert, silenceBodySchema, silenceResultSchema, unsilenceAlert } from "@/lib/alerts";
import { operatorRoute } from "@/lib/http";

const params = z.object({ rule: z.string().max(64) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Silence an alert rule for a time: it is still evaluated and its events recorded, but no channel is told",
    answer: silenceResultSchema,
    errors: [404],
    params,
    body: silenceBodySchema,
  },
  ({ params, body, actor }) => silenceAlert(params.rule, body.minutes, body.note || null, actor),
);

export const DELETE = operatorRoute(
  {
    role: "operator",
    summary: "Lift an alert rule's silence",
    answer: silenceResultSchema,
    errors: [404],
    params,
  },
  ({ params, actor }) => unsilenceAlert(params.rule, actor),
);
