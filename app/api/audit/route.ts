// GET /api/audit — operator actions, newest first, keyset-paged
import { auditPageSchema, auditQuerySchema } from "@/lib/audit/contracts";
import { listAuditPage } from "@/lib/audit/list";
import { operatorRoute } from "@/lib/http/operator-route";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Operator actions, newest first, keyset-paged",
    answer: auditPageSchema,
    query: auditQuerySchema,
  },
  ({ query }) => listAuditPage(query),
);
