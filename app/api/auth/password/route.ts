// POST /api/auth/password — {"currentPassword","newPassword"}: change one's own password; one's other sessions and one's tokens end
import { z } from "zod";
import { changeOwnPassword, changePasswordSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

export const POST = operatorRoute(
  {
    role: "viewer",
    summary: "Change one's own password; one's other sessions and one's API tokens end",
    answer: z.object({ endedSessions: z.number().int(), revokedTokens: z.number().int() }),
    errors: [429],
    body: changePasswordSchema,
  },
  ({ principal, body }) => changeOwnPassword(principal, body),
);
