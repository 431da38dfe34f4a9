import "server-only";
import { listSubscriptions } from "./list";
import { subscriptionListSchema, type SubscriptionList } from "./contracts";
import { unauthorizedChart } from "./unauthorized-chart";

// The Webhooks & secrets page's first render: the subscriptions exactly as GET /api/subscriptions
// lists them (secret reduced to its last 4 characters, on the server) and the 401 chart.

/** Parsed through the same contract the browser uses, so the prefetched and refetched lists are one shape. */
export async function subscriptionList(): Promise<SubscriptionList> {
  return subscriptionListSchema.parse({ items: await listSubscriptions() });
}

export async function subscriptionsPage(minutes = 60) {
  const [subscriptions, chart] = await Promise.all([subscriptionList(), unauthorizedChart({ minutes })]);
  return { subscriptions, chart };
}
