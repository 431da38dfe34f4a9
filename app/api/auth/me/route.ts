// GET /api/auth/me — who is signed in: {"email","name","role"}
import { meOf } from "@/lib/auth/principal";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer" }, async ({ principal }) => meOf(principal));
