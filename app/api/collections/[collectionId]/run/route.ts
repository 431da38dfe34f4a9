// POST /api/collections/:collectionId/run — a run of the collection now (202 {runId}); 409 while one is going
import { NextResponse } from "next/server";
import { z } from "zod";
import { runCollectionNow, startedRunSchema } from "@/lib/collections";
import { operatorRoute } from "@/lib/http";

export const dynamic = "force-dynamic";

const params = z.object({ collectionId: z.string().min(1).max(100) });

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Start a run of the collection now with its current list and settings",
    params,
    answer: startedRunSchema,
    status: 202,
    errors: [404, 409],
  },
  async ({ params, actor }) => NextResponse.json(await runCollectionNow(params.collectionId, actor), { status: 202 }),
);
