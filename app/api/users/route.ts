// GET /api/users, POST /api/users — people who sign in (admin)
import { z } from "zod";
import { NextResponse } from "next/server";
import { createUserAction, createUserSchema, listUsers, userRowSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  { role: "admin", summary: "People who sign in", answer: z.object({ items: z.array(userRowSchema) }) },
  async () => ({ items: await listUsers() }),
);

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Add a person who signs in",
    status: 201,
    answer: userRowSchema,
    errors: [409],
    body: createUserSchema,
  },
  async ({ principal, body }) => NextResponse.json(await createUserAction(principal, body), { status: 201 }),
);
