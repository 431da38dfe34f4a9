// GET /api/deliveries/unauthorized — 401s per minute per subscription, rotation markers and current spikes
import { unauthorizedChartSchema, unauthorizedQuerySchema } from "@/lib/subscriptions/unauthorized-contracts";
import { unauthorizedChart } from "@/lib/subscriptions/unauthorized-chart";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "401s per minute per subscription, rotation markers and current spikes",
    answer: unauthorizedChartSchema,
    query: unauthorizedQuerySchema,
  },
  ({ query }) => unauthorizedChart({ minutes: query.minutes }),
);
