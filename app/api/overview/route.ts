// GET /api/overview — the overview's figures (ledger, queue, deliveries, alerts), refreshed by the dashboard
import { getOverview } from "@/lib/overview";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

export const GET = operatorRoute(
  { role: "viewer", summary: "The overview's figures: ledger, queue, deliveries, alerts" },
  () => getOverview(),
);
