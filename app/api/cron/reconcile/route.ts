// POST (and GET, for Vercel Cron) /api/cron/reconcile — one reconciliation, answered when it has ended; 409 if one is running
import { z } from "zod";
import { cronRoute } from "@/lib/http";
import { cronReconcile } from "@/lib/worker";

export const POST = cronRoute("reconcile", z.object({}).strict(), () => cronReconcile(), {
  summary: "One reconciliation, answered when it has ended; 409 if one is running",
  errors: [409, 502],
});

// Vercel Cron calls GET with the same bearer secret; a browser cannot send that header cross-site.
export const GET = POST;
