// POST /api/tokens/{id}/revoke — the token stops working at once: one's own, or anyone's for an admin
import { revokedTokenSchema, revokeTokenAction, tokenParamsSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "Revoke an API token at once: one's own, or anyone's for an admin",
    answer: revokedTokenSchema,
    errors: [404],
    params: tokenParamsSchema,
  },
  ({ principal, params }) => revokeTokenAction(principal, params.id),
);
