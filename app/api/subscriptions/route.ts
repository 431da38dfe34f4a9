// GET /api/subscriptions — the webhook subscriptions, with the last four characters of each secret
import { subscriptionListSchema } from "@/lib/subscriptions/contracts";
import { operatorRoute } from "@/lib/http/operator-route";
import { listSubscriptions } from "@/lib/subscriptions/list";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "The webhook subscriptions, with the last four characters of each secret",
    answer: subscriptionListSchema,
  },
  async () => ({ items: await listSubscriptions() }),
);
