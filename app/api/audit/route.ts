// GET /api/audit — operator actions, newest first, keyset-paged
import { auditQuerySchema } from "@/lib/operations/audit-contracts";
import { listAuditPage } from "@/lib/operations/audit-list";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute({ role: "viewer", query: auditQuerySchema }, ({ query }) => listAuditPage(query));
