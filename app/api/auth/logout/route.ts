// POST /api/auth/logout — end this session (the row is revoked, not only the cookie cleared)
import { z } from "zod";
import { NextResponse } from "next/server";
import { clearedSessionCookie, logoutAction, SESSION_COOKIE } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

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
