// GET /api/users, POST /api/users — people who sign in (admin)
import { NextResponse } from "next/server";
import { createUserAction } from "@/lib/auth/actions";
import { listUsers } from "@/lib/auth/users";
import { createUserSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "admin" }, async () => ({ items: await listUsers() }));

export const POST = operatorRoute({ role: "admin", body: createUserSchema }, async ({ principal, body }) =>
  NextResponse.json(await createUserAction(principal, body), { status: 201 }),
);
