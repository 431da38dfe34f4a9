// POST /api/collections/:collectionId/resume — Start the collection's schedule again; its next tick counts from now (ticks missed while paused are not run)
import { z } from "zod";
import { collectionSummarySchema, setPaused } from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ collectionId: z.string().min(1).max(100) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary:
      "Start the collection's schedule again; its next tick counts from now (ticks missed while paused are not run)",
    params,
    answer: collectionSummarySchema,
    errors: [404],
  },
  ({ params, actor }) => setPaused(params.collectionId, false, actor),
);
