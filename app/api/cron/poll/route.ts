// POST (and GET, for Vercel Cron) /api/cron/poll — an external scheduler's polling pass: ends interrupted runs, polls what is due (bounded), single-flight
import { z } from "zod";
import { cronRoute } from "@/lib/http";
import { cronPoll } from "@/lib/worker";

export const POST = cronRoute("poll", z.object({}).strict(), () => cronPoll(), {
  summary: "One polling pass: ends the runs whose process stopped, polls what is due, bounded (single-flight)",
  errors: [409, 502],
});

// Vercel Cron calls GET with the same bearer secret; a browser cannot send that header cross-site.
export const GET = POST;
