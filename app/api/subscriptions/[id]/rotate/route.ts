// POST /api/subscriptions/:id/rotate — rotate on the platform, store, then replay the 401s; 202 {runId, secret}
import { z } from "zod";
import { operatorRoute, PLATFORM_ERRORS } from "@/lib/http";
import { NextResponse } from "next/server";
import { rotateAction, rotatedSchema, rotateFailureSchema, subscriptionParamsSchema } from "@/lib/subscriptions";

export const dynamic = "force-dynamic";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Rotate the secret on the platform, store it, replay the 401s; the new secret is in this answer only",
    status: 202,
    answer: rotatedSchema.extend({ alreadyRunning: z.boolean().optional() }),
    errors: [404, 409, ...PLATFORM_ERRORS],
    otherAnswers: {
      500: {
        description:
          "The platform rotated but Tally could not store the secret: enter this secret with POST /api/subscriptions/{id}/secret",
        answer: rotateFailureSchema.extend({ error: z.literal("secret_not_stored"), runId: z.string() }),
      },
    },
    params: subscriptionParamsSchema,
  },
  async ({ params, actor }) => {
    const a = await rotateAction(params.id, actor);
    // The only answer that ever carries a whole secret: never cache it anywhere.
    return NextResponse.json(a.body, { status: a.status, headers: { "Cache-Control": "no-store" } });
  },
);
