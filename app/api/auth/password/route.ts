// POST /api/auth/password — {"currentPassword","newPassword"}: change one's own password; one's other sessions end
import { z } from "zod";
import { changeOwnPassword } from "@/lib/auth/change-password";
import { changePasswordSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "Change one's own password; one's other sessions end",
    answer: z.object({ endedSessions: z.number().int() }),
    errors: [429],
    body: changePasswordSchema,
  },
  ({ principal, body }) => changeOwnPassword(principal, body),
);
