// POST (and GET, for Vercel Cron) /api/cron/alerts — evaluate the alert rules and send due notifications (single-flight)
import { z } from "zod";
import { runAlertPass } from "@/lib/alerts";
import { cronRoute } from "@/lib/http";

export const POST = cronRoute("alerts", z.object({}).strict(), () => runAlertPass(), {
  summary: "Evaluate the alert rules and send due notifications (single-flight)",
  errors: [409],
});

export const GET = POST;
