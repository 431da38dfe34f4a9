// POST /api/users/{id}/disable — shut a person out: sessions and tokens end at once (admin)
import { disableUserAction, userParamsSchema, userRowSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

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
