// POST /api/auth/login — check the operator password (throttled) and set the session cookie
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { login } from "@/lib/auth/login";
import { SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth/session";
import { BadRequest } from "@/lib/errors";
import { clientAddress } from "@/lib/http/client-address";
import { errorResponse } from "@/lib/http/errors";
import { sameOrigin } from "@/lib/http/operator-route";

const body = z.object({ password: z.string().min(1, { error: "Enter the password" }).max(1024) });

export async function POST(req: NextRequest) {
  try {
    if (!sameOrigin(req)) throw new BadRequest("Cross-origin sign-in refused");
    const parsed = body.safeParse(await req.json().catch(() => null));
    if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? "Enter the password");
    const { token, expires } = await login(parsed.data.password, clientAddress(req.headers));
    const res = NextResponse.json({ status: "ok" });
    res.cookies.set(SESSION_COOKIE, token, sessionCookieOptions(expires));
    return res;
  } catch (err) {
    return errorResponse(err);
  }
}
