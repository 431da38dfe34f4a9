// POST /api/collections/:collectionId/pause — Stop the collection's schedule (a manual run still works)
import { z } from "zod";
import { collectionSummarySchema, setPaused } from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ collectionId: z.string().min(1).max(100) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Stop the collection's schedule (a manual run still works)",
    params,
    answer: collectionSummarySchema,
    errors: [404],
  },
  ({ params, actor }) => setPaused(params.collectionId, true, actor),
);
