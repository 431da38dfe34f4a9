// GET /api/auth/me — who is signed in: {"email","name","role"}
import { meOf, meSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  { role: "viewer", summary: "Who is signed in", answer: meSchema },
  async ({ principal }) => meOf(principal),
);
