// GET /api/tokens, POST /api/tokens — personal API tokens: one's own (an admin sees all); the new token is shown once
import { NextResponse } from "next/server";
import { createTokenAction } from "@/lib/auth/actions";
import { listTokens } from "@/lib/auth/tokens";
import { createTokenSchema } from "@/lib/auth/tokens-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer" }, async ({ principal }) => ({ items: await listTokens(principal) }));

export const POST = operatorRoute({ role: "viewer", body: createTokenSchema }, async ({ principal, body }) =>
  NextResponse.json(await createTokenAction(principal, body), { status: 201 }),
);
