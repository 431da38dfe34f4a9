// POST /api/auth/login — {"email","password"} (or {"password"} for admin@localhost); throttled; sets the session cookie
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { login } from "@/lib/auth/login";
import { SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth/session";
import { emailSchema } from "@/lib/auth/users-contracts";
import { BadRequest } from "@/lib/errors";
import { clientAddress } from "@/lib/http/client-address";
import { errorResponse } from "@/lib/http/errors";
import { parseJsonBody, sameOrigin } from "@/lib/http/operator-route";

const body = z.object({
  email: z.preprocess((v) => (v === "" || v === null ? undefined : v), emailSchema.optional()),
  password: z.string().min(1, { error: "Enter the password" }).max(1024),
});

export async function POST(req: NextRequest) {
  try {
    if (!sameOrigin(req)) throw new BadRequest("Cross-origin sign-in refused");
    // server.ts refuses a body over 8 KB before it is read; NUL characters are refused as in every JSON body.
    const text = await req.text();
    const parsed = body.safeParse(text === "" ? null : parseJsonBody(text));
    if (!parsed.success) throw new BadRequest(parsed.error.issues[0]?.message ?? "Enter the password");
    const { cookie, expires } = await login(parsed.data, {
      address: clientAddress(req.headers),
      userAgent: req.headers.get("user-agent"),
    });
    const res = NextResponse.json({ status: "ok" });
    res.cookies.set(SESSION_COOKIE, cookie, sessionCookieOptions(expires));
    return res;
  } catch (err) {
    return errorResponse(err);
  }
}
