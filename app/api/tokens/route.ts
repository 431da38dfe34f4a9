// GET /api/tokens, POST /api/tokens — personal API tokens: one's own (an admin sees all); the new token is shown once
import { z } from "zod";
import { NextResponse } from "next/server";
import { createdTokenSchema, createTokenAction, createTokenSchema, listTokens, tokenRowSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Personal API tokens: one's own (an admin sees all)",
    answer: z.object({ items: z.array(tokenRowSchema) }),
  },
  async ({ principal }) => ({ items: await listTokens(principal) }),
);

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "Make a personal API token; the token is in this answer only",
    status: 201,
    answer: createdTokenSchema,
    errors: [409],
    body: createTokenSchema,
  },
  async ({ principal, body }) => NextResponse.json(await createTokenAction(principal, body), { status: 201 }),
);
