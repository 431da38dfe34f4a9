// POST /api/dead-letters/discard — discard dead letters with a reason, by ids or all open ones a filter matches
import { discardBodySchema, discardDeadLetters } from "@/lib/dead-letters";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Discard dead letters with a reason, by ids or all open ones a filter matches",
    errors: [409],
    body: discardBodySchema,
  },
  ({ body, actor }) => discardDeadLetters(body, actor),
);
