// GET /api/deliveries/unauthorized — 401s per minute per subscription, rotation markers and current spikes
import { unauthorizedChart, unauthorizedChartSchema, unauthorizedQuerySchema } from "@/lib/subscriptions";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "401s per minute per subscription, rotation markers and current spikes",
    answer: unauthorizedChartSchema,
    query: unauthorizedQuerySchema,
  },
  ({ query }) => unauthorizedChart({ minutes: query.minutes }),
);
