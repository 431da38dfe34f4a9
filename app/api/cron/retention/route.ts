// POST /api/cron/retention — one retention pass and the expired-secret clean-up, single-flight
import { z } from "zod";
import { cronRoute } from "@/lib/http/cron-route";
import { cronRetention } from "@/lib/worker/cron";

export const POST = cronRoute("retention", z.object({}).strict(), () => cronRetention());
