// GET /api/alerts — alert rules with state and thresholds, channels with health, recent firings with delivery results
import { alertsView } from "@/lib/alerts";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Alert rules with state and thresholds, channels with health, recent firings with delivery results",
  },
  ({ principal }) => alertsView(principal.role),
);
