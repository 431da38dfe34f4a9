// POST /api/auth/logout — end this session (the row is revoked, not only the cookie cleared)
import { z } from "zod";
import { NextResponse } from "next/server";
import { logoutAction } from "@/lib/auth/actions";
import { clearedSessionCookie, SESSION_COOKIE } from "@/lib/auth/session";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "End this session (the row is revoked, not only the cookie cleared)",
    answer: z.object({ status: z.literal("signed_out") }),
  },
  async ({ principal }) => {
    await logoutAction(principal);
    const res = NextResponse.json({ status: "signed_out" });
    res.cookies.set(SESSION_COOKIE, "", clearedSessionCookie);
    return res;
  },
);
