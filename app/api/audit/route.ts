// GET /api/audit — operator actions, newest first, keyset-paged
import { auditPageSchema, auditQuerySchema, listAuditPage } from "@/lib/audit";
import { operatorRoute } from "@/lib/http";

export const GET = operatorRoute(
  {
    role: "viewer",
    summary: "Operator actions, newest first, keyset-paged",
    answer: auditPageSchema,
    query: auditQuerySchema,
  },
  ({ query }) => listAuditPage(query),
);
