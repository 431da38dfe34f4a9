// POST (and GET, for Vercel Cron) /api/cron/retention — one retention pass and the expired-secret clean-up, single-flight
import { z } from "zod";
import { cronRoute } from "@/lib/http";
import { cronRetention } from "@/lib/worker";

export const POST = cronRoute("retention", z.object({}).strict(), () => cronRetention(), {
  summary: "One retention pass and the expired-secret clean-up (single-flight)",
  errors: [409],
});

// Vercel Cron calls GET with the same bearer secret; a browser cannot send that header cross-site.
export const GET = POST;
