// POST /api/auth/login — {"email","password"} (or {"password"} for admin@localhost); throttled; sets the session cookie
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { emailSchema, login, SESSION_COOKIE, sessionCookieOptions } from "@/lib/auth";
import { BadRequest } from "@/lib/errors";
import { clientAddress, documented, errorResponse, parseJsonBody, sameOrigin } from "@/lib/http";

const body = z.object({
  email: z.preprocess((v) => (v === "" || v === null ? undefined : v), emailSchema.optional()),
  password: z.string().min(1, { error: "Enter the password" }).max(1024),
});

const answer = z.object({ status: z.literal("ok") });

export const POST = documented(
  {
    access: { kind: "public" },
    summary: "Sign in: sets the session cookie (throttled per address and per account)",
    description:
      "`{email, password}`, or `{password}` alone for the first admin (admin@localhost). One answer for every failure (401), so it does not tell which accounts exist. A request from another origin is refused (400).",
    body,
    answer,
    errors: [400, 401, 429, 500],
  },
  async (req: NextRequest) => {
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
      const ok: z.input<typeof answer> = { status: "ok" };
      const res = NextResponse.json(ok);
      res.cookies.set(SESSION_COOKIE, cookie, sessionCookieOptions(expires));
      return res;
    } catch (err) {
      return errorResponse(err);
    }
  },
);
