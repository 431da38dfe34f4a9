// POST /api/operations/reconcile — start (or join) a reconciliation; optional {olderThanSeconds, since, scope: "recent"|"full"}; 202 {runId}
import { NextResponse } from "next/server";
import { operatorRoute } from "@/lib/http";
import { reconcileAction } from "@/lib/safety-nets";
import { acceptedSchema, reconcileBodySchema } from "@/lib/operations";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "operator",
    summary: "Start (or join) a reconciliation",
    status: 202,
    answer: acceptedSchema,
    errors: [502],
    body: reconcileBodySchema,
  },
  async ({ body, actor }) => NextResponse.json(await reconcileAction(body, actor), { status: 202 }),
);
