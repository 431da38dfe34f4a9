// POST (and GET, for Vercel Cron) /api/cron/work — drain the queue for at most maxSeconds (query or JSON body; default 25, max 300)
import { z } from "zod";
import { cronRoute } from "@/lib/http";
import { cronWork } from "@/lib/worker";

const input = z
  .object({
    maxSeconds: z.coerce
      .number({ error: "must be a number of seconds" })
      .int({ error: "must be a whole number of seconds" })
      .min(1, { error: "must be at least 1" })
      .max(300, { error: "must be at most 300" })
      .default(25),
  })
  .strict();

export const POST = cronRoute("work", input, ({ maxSeconds }) => cronWork(maxSeconds), {
  summary: "Drain the queue for at most maxSeconds (query or JSON body; default 25, max 300)",
  errors: [409, 502],
});

// Vercel Cron calls GET with the same bearer secret; a browser cannot send that header cross-site.
export const GET = POST;
