// GET /api/auth/sessions — live sessions: the caller's own, everyone's for an admin
import { z } from "zod";
import { listSessions, sessionRowSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Live sessions: the caller's own, everyone's for an admin",
    answer: z.object({ items: z.array(sessionRowSchema) }),
  },
  async ({ principal }) => ({
    items: await listSessions(principal),
  }),
);
