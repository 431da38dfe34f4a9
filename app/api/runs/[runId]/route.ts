// GET /api/runs/:runId — one run: its counts (adding up to total), chunks, duplicate submissions, platform calls and ETA
import { z } from "zod";
import { operatorRoute } from "@/lib/http";
import { getRun, runViewSchema } from "@/lib/runs";

export const dynamic = "force-dynamic";

const params = z.object({ runId: z.string().min(1).max(100) });

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "One run: its counts (adding up to total), chunks, duplicate submissions, platform calls and ETA",
    params,
    answer: runViewSchema,
    errors: [404],
  },
  ({ params }) => getRun(params.runId),
);
