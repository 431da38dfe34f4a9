// POST /api/users/{id}/role — {"role"}: applies on the person's next request (admin)
import { setRoleAction } from "@/lib/auth/actions";
import { setRoleSchema, userParamsSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  { role: "admin", params: userParamsSchema, body: setRoleSchema },
  ({ principal, params, body }) => setRoleAction(principal, params.id, body.role),
);
