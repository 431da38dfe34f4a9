// POST /api/operations/replay — replay missed deliveries from the platform's log; optional {subscriptionId, since}; 202 {runId}
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import { replayAction } from "@/lib/safety-nets";
import { acceptedSchema, replayBodySchema } from "@/lib/operations";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Replay missed deliveries from the platform's log",
    status: 202,
    answer: acceptedSchema,
    errors: [404, 502],
    body: replayBodySchema,
  },
  async ({ body, actor }) => NextResponse.json(await replayAction(body, actor), { status: 202 }),
);
