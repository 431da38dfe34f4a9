// POST (and GET, for Vercel Cron) /api/cron/collections — start the collections' due scheduled runs (one run per tick)
import { z } from "zod";
import { cronCollections } from "@/lib/collections";
import { cronRoute } from "@/lib/http";

export const POST = cronRoute("collections", z.object({}).strict(), () => cronCollections(), {
  summary: "Start the collections' due scheduled runs: one run per tick, a missed tick once (single-flight)",
  errors: [409],
});

export const GET = POST;
