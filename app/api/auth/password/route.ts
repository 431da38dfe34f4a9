// POST /api/auth/password — {"currentPassword","newPassword"}: change one's own password; one's other sessions end
import { changeOwnPassword } from "@/lib/auth/change-password";
import { changePasswordSchema } from "@/lib/auth/users-contracts";
import { operatorRoute } from "@/lib/http/operator-route";

export const POST = operatorRoute({ role: "viewer", body: changePasswordSchema }, ({ principal, body }) =>
  changeOwnPassword(principal, body),
);
