// POST /api/dead-letters/retry — retry (resubmit or re-queue) dead letters by ids, or all open ones a filter matches
import { retryBodySchema, retryDeadLetters } from "@/lib/dead-letters/actions";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Retry (resubmit or re-queue) dead letters by ids, or all open ones a filter matches",
    errors: [409],
    body: retryBodySchema,
  },
  ({ body, actor }) => retryDeadLetters(body, actor),
);
