// POST /api/users/{id}/disable — shut a person out: sessions and tokens end at once (admin)
import { disableUserAction } from "@/lib/auth/actions";
import { userParamsSchema, userRowSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "admin",
    summary: "Shut a person out: their sessions and tokens end at once",
    answer: userRowSchema,
    errors: [404, 409],
    params: userParamsSchema,
  },
  ({ principal, params }) => disableUserAction(principal, params.id),
);
