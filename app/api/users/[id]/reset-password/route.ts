// POST /api/users/{id}/reset-password — {"password"}: sets it, ends the person's sessions and revokes their personal API tokens (admin)
import { resetPasswordAction, resetPasswordSchema, userParamsSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Set a person's password: their sessions end and their personal API tokens are revoked",
    params: userParamsSchema,
    body: resetPasswordSchema,
    errors: [404],
  },
  async ({ principal, params, body }) => {
    const r = await resetPasswordAction(principal, params.id, body.password);
    return { id: r.id, email: r.email, sessionsEnded: r.sessionsEnded, tokensRevoked: r.tokensRevoked };
  },
);
