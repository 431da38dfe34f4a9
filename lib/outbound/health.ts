import "server-only";
import type { Role } from "../auth";
import { db } from "../db";
import { errorFor } from "./error-for";
import type { DestinationHealth } from "./contracts";

// Each destination's health: the share of 2xx among its attempts in the last WINDOW_HOURS, its
// deliveries by status, and when it last succeeded and last failed (with the error).

export const WINDOW_HOURS = 24;

export async function destinationHealth(now = new Date(), role: Role = "viewer"): Promise<DestinationHealth[]> {
  const since = new Date(now.getTime() - WINDOW_HOURS * 3_600_000);
  const [destinations, byStatus, attempts] = await Promise.all([
    db().destination.findMany({ select: { id: true } }),
    db().outboundDelivery.groupBy({ by: ["destinationId", "status"], _count: { _all: true } }),
    db().outboundAttempt.groupBy({
      by: ["destinationId", "ok"],
      where: { at: { gte: since } },
      _count: { _all: true },
    }),
  ]);
  return Promise.all(
    destinations.map(async ({ id }) => {
      const [lastOk, lastBad] = await Promise.all([
        db().outboundAttempt.findFirst({
          where: { destinationId: id, ok: true },
          orderBy: { at: "desc" },
          select: { at: true },
        }),
        db().outboundAttempt.findFirst({
          where: { destinationId: id, ok: false },
          orderBy: { at: "desc" },
          select: { at: true, error: true },
        }),
      ]);
      const mine = attempts.filter((a) => a.destinationId === id);
      const total = mine.reduce((n, a) => n + a._count._all, 0);
      const ok = mine.filter((a) => a.ok).reduce((n, a) => n + a._count._all, 0);
      return {
        destinationId: id,
        successRate: total === 0 ? null : ok / total,
        attempts: total,
        windowHours: WINDOW_HOURS,
        byStatus: Object.fromEntries(
          byStatus.filter((s) => s.destinationId === id).map((s) => [s.status, s._count._all]),
        ),
        lastSuccessAt: lastOk?.at.toISOString() ?? null,
        lastErrorAt: lastBad?.at.toISOString() ?? null,
        lastError: errorFor(role, lastBad?.error ?? null),
      };
    }),
  );
}
