// POST /api/auth/sessions/{id}/revoke — end one session: one's own, or anyone's for an admin
import { z } from "zod";
import { revokeSession, sessionParamsSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "End one session: one's own, or anyone's for an admin",
    answer: z.object({ status: z.literal("revoked") }),
    errors: [404],
    params: sessionParamsSchema,
  },
  async ({ principal, params }) => {
    await revokeSession(principal, params.id);
    return { status: "revoked" as const };
  },
);
