// POST /api/subscriptions/:id/replay-401s — replay the deliveries that got 401 since the last rotation; 202 {runId}
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http/operator-route";
import { subscriptionParamsSchema } from "@/lib/subscriptions/contracts";
import { replay401sAction } from "@/lib/subscriptions/actions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute({ role: "operator", params: subscriptionParamsSchema }, async ({ params, actor }) => {
  const a = await replay401sAction(params.id, actor);
  return NextResponse.json(a.body, { status: a.status });
});
