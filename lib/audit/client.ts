// lib/audit's surface for client components (no server code): what other folders and the browser may import.
export { type AuditPage, auditPageSchema, auditQuerySchema } from "./contracts";
