// GET /api/audit — operator actions, newest first, keyset-paged
import { auditQuerySchema } from "@/lib/dashboard/contracts/audit";
import { listAuditPage } from "@/lib/dashboard/audit-view";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ query: auditQuerySchema }, ({ query }) => listAuditPage(query));
