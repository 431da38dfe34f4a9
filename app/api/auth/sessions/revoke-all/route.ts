// POST /api/auth/sessions/revoke-all — sign out everywhere (every session of the caller, this one too);
// {"revokeTokens": true} revokes the caller's personal API tokens as well
import { z } from "zod";
import { NextResponse } from "next/server";
import { clearedSessionCookie, revokeAllAction, revokeAllSchema, SESSION_COOKIE } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary:
      "Sign out everywhere: every session of the caller, this one too; with revokeTokens, their personal API tokens as well",
    body: revokeAllSchema,
    answer: z.object({ revoked: z.number().int(), tokensRevoked: z.number().int() }),
  },
  async ({ principal, body }) => {
    const r = await revokeAllAction(principal, body);
    const res = NextResponse.json(r);
    res.cookies.set(SESSION_COOKIE, "", clearedSessionCookie);
    return res;
  },
);
