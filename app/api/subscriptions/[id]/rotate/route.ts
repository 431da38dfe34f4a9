// POST /api/subscriptions/:id/rotate — rotate on the platform, store, then replay the 401s; 202 {runId, secret}
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http/operator-route";
import { subscriptionParamsSchema } from "@/lib/subscriptions/contracts";
import { rotateAction } from "@/lib/subscriptions/actions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute({ role: "admin", params: subscriptionParamsSchema }, async ({ params, actor }) => {
  const a = await rotateAction(params.id, actor);
  // The only answer that ever carries a whole secret: never cache it anywhere.
  return NextResponse.json(a.body, { status: a.status, headers: { "Cache-Control": "no-store" } });
});
