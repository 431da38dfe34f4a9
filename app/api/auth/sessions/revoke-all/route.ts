// POST /api/auth/sessions/revoke-all — sign out everywhere (every session of the caller, this one too);
// {"revokeTokens": true} revokes the caller's personal API tokens as well
import { z } from "zod";
import { NextResponse } from "next/server";
import { revokeAllAction } from "@/lib/auth/actions";
import { clearedSessionCookie, SESSION_COOKIE } from "@/lib/auth/session";
import { revokeAllSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

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
