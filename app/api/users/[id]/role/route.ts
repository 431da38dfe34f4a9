// POST /api/users/{id}/role — {"role"}: applies on the person's next request (admin)
import { setRoleAction } from "@/lib/auth/actions";
import { setRoleSchema, userParamsSchema, userRowSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Change a person's role; it applies on their next request",
    answer: userRowSchema,
    errors: [404, 409],
    params: userParamsSchema,
    body: setRoleSchema,
  },
  ({ principal, params, body }) => setRoleAction(principal, params.id, body.role),
);
