// POST /api/auth/logout — end the session
import { NextResponse } from "next/server";
import { audit } from "@/lib/operations/audit";
import { SESSION_COOKIE } from "@/lib/auth/session";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute({}, async ({ actor }) => {
  await audit({ actor, action: "logout" });
  const res = NextResponse.json({ status: "signed_out" });
  res.cookies.set(SESSION_COOKIE, "", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 0 });
  return res;
});
