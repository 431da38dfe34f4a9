// GET /api/auth/sessions — live sessions: the caller's own, everyone's for an admin
import { listSessions } from "@/lib/auth/sessions";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer" }, async ({ principal }) => ({
  items: await listSessions(principal),
}));
