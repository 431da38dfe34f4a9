// GET /api/audit — operator actions, newest first, keyset-paged
import { auditQuerySchema } from "@/lib/audit/contracts";
import { listAuditPage } from "@/lib/audit/list";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer", query: auditQuerySchema }, ({ query }) => listAuditPage(query));
