// POST /api/subscriptions/:id/secret — store a secret rotated elsewhere, then replay the 401s since the spike; 202 {runId}
import { startedSchema } from "@/lib/operations";
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import { secretBodySchema, setSecretAction, subscriptionParamsSchema } from "@/lib/subscriptions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Store a secret rotated elsewhere, then replay the 401s since the spike",
    status: 202,
    answer: startedSchema,
    errors: [404, 409],
    params: subscriptionParamsSchema,
    body: secretBodySchema,
  },
  async ({ params, body, actor }) => {
    const a = await setSecretAction(params.id, body.secret, actor);
    return NextResponse.json(a.body, { status: a.status });
  },
);
