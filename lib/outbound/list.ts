import "server-only";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import type { Role } from "../auth";
import { NotFound } from "../errors";
import { decodeCursor, encodeCursor, intId } from "../keyset";
import { redactUrlSecrets } from "../config";
import type { AttemptList, DeliveryListQuery, DeliveryPage } from "./contracts";
import { errorFor } from "./error-for";
import { isSinkType, shownUrl } from "./sink-config";

// The Outbound page's delivery list: newest first, keyset-paged by id, filtered by destination,
// status and job. What a destination answered (the first bytes of its body) is for operators and
// admins; the addresses in an error are for admins (see errorFor).

const CURSOR = { tag: "ob1", position: z.tuple([intId]) };

export async function listDeliveries(q: DeliveryListQuery, role: Role = "viewer"): Promise<DeliveryPage> {
  const after = decodeCursor(CURSOR.tag, q.cursor, CURSOR.position)?.[0];
  const where: Prisma.OutboundDeliveryWhereInput = {
    ...(q.destinationId ? { destinationId: q.destinationId } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.jobId ? { jobId: q.jobId } : {}),
    ...(after ? { id: { lt: after } } : {}),
  };
  const rows = await db().outboundDelivery.findMany({
    where,
    orderBy: { id: "desc" },
    take: q.limit + 1,
    include: { destination: { select: { url: true, type: true } } },
  });
  const page = rows.slice(0, q.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      destinationId: r.destinationId,
      destinationUrl: isSinkType(r.destination.type)
        ? redactUrlSecrets(r.destination.url)
        : shownUrl(r.destination.url),
      eventId: r.eventId,
      eventType: r.eventType,
      jobId: r.jobId,
      status: r.status,
      attempts: r.attempts,
      replays: r.replays,
      lastStatusCode: r.lastStatusCode,
      lastError: errorFor(role, r.lastError),
      lastLatencyMs: r.lastLatencyMs,
      nextAttemptAt: r.nextAttemptAt?.toISOString() ?? null,
      retryUntil: r.retryUntil.toISOString(),
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
      createdAt: r.createdAt.toISOString(),
    })),
    nextCursor: rows.length > q.limit ? encodeCursor(CURSOR.tag, [page[page.length - 1].id]) : null,
  };
}

/** Every attempt of one delivery, oldest first: what each answer was and how long it took. */
export async function deliveryAttempts(deliveryId: number, role: Role = "viewer"): Promise<AttemptList> {
  const d = await db().outboundDelivery.findUnique({ where: { id: deliveryId }, select: { id: true } });
  if (!d) throw new NotFound(`No outbound delivery ${deliveryId}`);
  const rows = await db().outboundAttempt.findMany({ where: { deliveryId }, orderBy: { id: "asc" }, take: 500 });
  return {
    items: rows.map((a) => ({
      attempt: a.attempt,
      ok: a.ok,
      statusCode: a.statusCode,
      error: errorFor(role, a.error),
      latencyMs: a.latencyMs,
      at: a.at.toISOString(),
    })),
  };
}
