import "server-only";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import type { AuditPage, AuditQuery } from "./contracts";
import { decodeKeyset, intId, pageOf } from "../keyset";

// Operator actions for the Operations page, keyset-paged on (at, id) through the at, (action, at) and
// (actor, at) indexes.
// Details are shortened (they are for a glance; the full row stays in the table) and, as a second
// line of defence behind the writers, any field named like a secret is blanked before it leaves.

const DETAIL_MAX = 300;
const SECRET_KEY = /secret|password|token|authorization|api[-_]?key/i;

function redactDetail(detail: string | null): string | null {
  if (detail === null) return null;
  let text: string;
  try {
    text = JSON.stringify(JSON.parse(detail), (key, value: unknown) =>
      key && SECRET_KEY.test(key) ? "[redacted]" : value,
    );
  } catch {
    text = detail;
  }
  return text.length > DETAIL_MAX ? `${text.slice(0, DETAIL_MAX)}…` : text;
}

export async function listAuditPage(q: AuditQuery): Promise<AuditPage> {
  const cursor = decodeKeyset("au1", q.cursor, intId);
  const where: Prisma.AuditLogWhereInput = {
    ...(q.action ? { action: q.action } : {}),
    ...(q.actor ? { actor: q.actor } : {}),
    ...(cursor
      ? { AND: [{ at: { lte: cursor.at } }, { OR: [{ at: { lt: cursor.at } }, { id: { lt: cursor.id } }] }] }
      : {}),
  };
  const rows = await db().auditLog.findMany({ where, orderBy: [{ at: "desc" }, { id: "desc" }], take: q.limit + 1 });
  const page = pageOf("au1", rows, q.limit, (r) => r.at);
  return {
    items: page.items.map((r) => ({
      ...r,
      at: r.at.toISOString(),
      detail: redactDetail(r.detail),
    })),
    nextCursor: page.nextCursor,
  };
}
