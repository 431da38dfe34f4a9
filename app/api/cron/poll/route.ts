// POST /api/cron/poll — an external scheduler's polling pass: polls what is due (bounded), single-flight
import { z } from "zod";
import { cronRoute } from "@/lib/http/cron-route";
import { cronPoll } from "@/lib/worker/cron";

export const POST = cronRoute("poll", z.object({}).strict(), () => cronPoll());
