import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { listAuditPage } from "./audit-list";
import { runStateSchema, type HistoryPage, type HistoryQuery } from "./contracts";
import { decodeCursor, pageOf } from "../keyset";

// The history of operation runs (reconcile, replay, rotate, poll, register) for the Operations page,
// newest first, keyset-paged on (startedAt, id) through the startedAt and (kind, startedAt) indexes.

const jsonValue = z.json();

/** Runs store progress and summary as JSON text; anything unreadable is shown as the raw text. */
function parseJson(text: string | null): z.infer<typeof jsonValue> | null {
  if (text === null) return null;
  try {
    const parsed = jsonValue.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : text;
  } catch {
    return text;
  }
}

export async function listRuns(q: HistoryQuery): Promise<HistoryPage> {
  const cursor = decodeCursor(q.cursor, z.string());
  const where: Prisma.OperationRunWhereInput = {
    ...(q.kind ? { kind: q.kind } : {}),
    ...(cursor
      ? { AND: [{ startedAt: { lte: cursor.at } }, { OR: [{ startedAt: { lt: cursor.at } }, { id: { lt: cursor.id } }] }] }
      : {}),
  };
  const [rows, running] = await Promise.all([
    db().operationRun.findMany({
      where,
      orderBy: [{ startedAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      select: {
        id: true,
        kind: true,
        state: true,
        startedBy: true,
        startedAt: true,
        finishedAt: true,
        params: true,
        progress: true,
        summary: true,
        error: true,
      },
    }),
    db().operationRun.count({ where: { state: "running" } }),
  ]);
  const page = pageOf(rows, q.limit, (r) => r.startedAt);
  return {
    items: page.items.map((r) => {
      const state = runStateSchema.safeParse(r.state);
      return {
        id: r.id,
        kind: r.kind,
        // an unknown state from a newer writer is shown as failed rather than hidden
        state: state.success ? state.data : "failed",
        startedBy: r.startedBy,
        startedAt: r.startedAt.toISOString(),
        finishedAt: r.finishedAt?.toISOString() ?? null,
        durationMs: r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
        params: parseJson(r.params),
        progress: parseJson(r.progress),
        summary: parseJson(r.summary),
        error: r.error,
      };
    }),
    nextCursor: page.nextCursor,
    running,
  };
}

/** The Operations page's first render: the newest runs and operator actions. */
export async function operationsPage(limit = 20) {
  const [history, audit] = await Promise.all([listRuns({ limit }), listAuditPage({ limit })]);
  return { history, audit };
}
