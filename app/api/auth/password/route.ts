// POST /api/auth/password — {"currentPassword","newPassword"}: change one's own password; one's other sessions end
import { z } from "zod";
import { changeOwnPassword, changePasswordSchema } from "@/lib/auth";
import { operatorRoute } from "@/lib/http";

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
