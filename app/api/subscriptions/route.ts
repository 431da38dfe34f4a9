// GET /api/subscriptions — the webhook subscriptions, with the last four characters of each secret
import { listSubscriptions, subscriptionListSchema } from "@/lib/subscriptions";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The webhook subscriptions, with the last four characters of each secret",
    answer: subscriptionListSchema,
  },
  async () => ({ items: await listSubscriptions() }),
);
