// POST /api/users/{id}/role — {"role"}: applies on the person's next request (admin)
import { setRoleAction, setRoleSchema, userParamsSchema, userRowSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

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
