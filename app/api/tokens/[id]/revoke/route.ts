// POST /api/tokens/{id}/revoke — the token stops working at once: one's own, or anyone's for an admin
import { revokeTokenAction } from "@/lib/auth/actions";
import { revokedTokenSchema, tokenParamsSchema } from "@/lib/auth/tokens-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

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
