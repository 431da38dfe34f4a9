// POST /api/auth/sessions/revoke-all — sign out everywhere (every session of the caller, this one too)
import { z } from "zod";
import { NextResponse } from "next/server";
import { revokeAllAction } from "@/lib/auth/actions";
import { clearedSessionCookie, SESSION_COOKIE } from "@/lib/auth/session";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "Sign out everywhere: every session of the caller, this one too",
    answer: z.object({ revoked: z.number().int() }),
  },
  async ({ principal }) => {
    const r = await revokeAllAction(principal);
    const res = NextResponse.json(r);
    res.cookies.set(SESSION_COOKIE, "", clearedSessionCookie);
    return res;
  },
);
