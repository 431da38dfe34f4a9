// GET /api/deliveries/unauthorized — 401s per minute per subscription, rotation markers and current spikes
import { unauthorizedQuerySchema } from "@/lib/subscriptions/unauthorized-contracts";
import { unauthorizedChart } from "@/lib/subscriptions/unauthorized-chart";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer", query: unauthorizedQuerySchema }, ({ query }) =>
  unauthorizedChart({ minutes: query.minutes }),
);
