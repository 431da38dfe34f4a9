// POST (and GET, for Vercel Cron) /api/cron/bodies-sweep — remove the body store's objects no result names, past the grace (single-flight)
import { z } from "zod";
import { sweepBodiesOnce } from "@/lib/bodies";
import { cronRoute } from "@/lib/http";

export const POST = cronRoute("bodies-sweep", z.object({}).strict(), () => sweepBodiesOnce(), {
  summary: "Remove the body store's objects that no result names, once older than the grace (single-flight)",
  errors: [409],
});

// Vercel Cron calls GET with the same bearer secret; a browser cannot send that header cross-site.
export const GET = POST;
