import { z } from "zod";

// GET /api/audit: operator actions, newest first; `actor` filters by who (an e-mail, `token:{name}`, `system`).

export const auditQuerySchema = z.object({
  action: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(100).optional()),
  actor: z.preprocess((v) => (v === "" ? undefined : v), z.string().trim().max(300).optional()),
  cursor: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(300).optional()),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditRowSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  action: z.string(),
  target: z.string().nullable(),
  detail: z.string().nullable(),
  ok: z.boolean(),
});
export type AuditRow = z.infer<typeof auditRowSchema>;

export const auditPageSchema = z.object({ items: z.array(auditRowSchema), nextCursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
