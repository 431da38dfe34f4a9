import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { listAuditPage } from "../audit";
import type { HistoryPage, HistoryQuery, JsonValue } from "./contracts";
import { decodeKeyset, pageOf, textId } from "../keyset";
import { toView } from "./view";

// The history of operation runs (reconcile, replay, rotate, poll, register) for the Operations page and
// GET /api/operations{,/history},
// newest first, keyset-paged on (startedAt, id) through the startedAt and (kind, startedAt) indexes.

const jsonValue = z.json();

/** For the operator's eyes: whatever a run wrote, as JSON, or as its raw text when unreadable. */
function shown(text: string | null): JsonValue | null {
  if (text === null) return null;
  try {
    const parsed = jsonValue.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : text;
  } catch {
    return text;
  }
}

export async function listRuns(q: HistoryQuery): Promise<HistoryPage> {
  const cursor = decodeKeyset("op1", q.cursor, textId);
  const where: Prisma.OperationRunWhereInput = {
    ...(q.kind ? { kind: q.kind } : {}),
    ...(cursor
      ? {
          AND: [
            { startedAt: { lte: cursor.at } },
            { OR: [{ startedAt: { lt: cursor.at } }, { id: { lt: cursor.id } }] },
          ],
        }
      : {}),
  };
  const [rows, running] = await Promise.all([
    db().operationRun.findMany({ where, orderBy: [{ startedAt: "desc" }, { id: "desc" }], take: q.limit + 1 }),
    db().operationRun.count({ where: { state: "running" } }),
  ]);
  const page = pageOf("op1", rows, q.limit, (r) => r.startedAt);
  return {
    items: page.items.map((r) => ({
      ...toView(r),
      params: shown(r.params),
      progress: shown(r.progress),
      summary: shown(r.summary),
      durationMs: r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
    })),
    nextCursor: page.nextCursor,
    running,
  };
}

/** The Operations page's first render: the newest runs and operator actions. */
export async function operationsPage(limit = 20) {
  const [history, audit] = await Promise.all([listRuns({ limit }), listAuditPage({ limit })]);
  return { history, audit };
}
