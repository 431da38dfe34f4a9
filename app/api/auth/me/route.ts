// GET /api/auth/me — who is signed in: {"email","name","role"}
import { meSchema } from "@/lib/auth/roles";
import { meOf } from "@/lib/auth/principal";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute(
  { role: "viewer", summary: "Who is signed in", answer: meSchema },
  async ({ principal }) => meOf(principal),
);
