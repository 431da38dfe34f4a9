import "server-only";
import { db } from "../db";

// The audit log of operator actions: who did what to which target, and whether it worked.

export async function audit(entry: {
  actor: string;
  action: string;
  target?: string | null;
  detail?: unknown;
  ok?: boolean;
}): Promise<void> {
  await db().auditLog.create({
    data: {
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail === undefined ? null : JSON.stringify(entry.detail),
      ok: entry.ok ?? true,
    },
  });
}

export async function listAudit(limit = 100) {
  return db().auditLog.findMany({ orderBy: { id: "desc" }, take: Math.min(limit, 500) });
}
