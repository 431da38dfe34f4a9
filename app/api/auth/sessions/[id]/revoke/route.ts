// POST /api/auth/sessions/{id}/revoke — end one session: one's own, or anyone's for an admin
import { revokeSession } from "@/lib/auth/sessions";
import { sessionParamsSchema } from "@/lib/auth/sessions-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute({ role: "viewer", params: sessionParamsSchema }, async ({ principal, params }) => {
  await revokeSession(principal, params.id);
  return { status: "revoked" };
});
