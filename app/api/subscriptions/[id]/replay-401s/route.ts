// POST /api/subscriptions/:id/replay-401s — replay the deliveries that got 401 since the last rotation; 202 {runId}
import { acceptedSchema } from "@/lib/operations";
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import { replay401sAction, subscriptionParamsSchema } from "@/lib/subscriptions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Replay the deliveries that got 401 since the last rotation",
    status: 202,
    answer: acceptedSchema,
    errors: [404, 409, 502],
    params: subscriptionParamsSchema,
  },
  async ({ params, actor }) => {
    const a = await replay401sAction(params.id, actor);
    return NextResponse.json(a.body, { status: a.status });
  },
);
