// POST /api/dead-letters/retry — retry (resubmit or re-queue) dead letters by ids, or all open ones a filter matches
import { retryBodySchema, retryDeadLetters } from "@/lib/dead-letters";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Retry (resubmit or re-queue) dead letters by ids, or all open ones a filter matches",
    errors: [409],
    body: retryBodySchema,
  },
  ({ body, actor }) => retryDeadLetters(body, actor),
);
