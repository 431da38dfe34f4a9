import "server-only";
import { db } from "../db";
import { THROUGHPUT_RANGES, type Throughput, type ThroughputPoint, type ThroughputRange } from "./throughput-contracts";

// Deliveries and outcomes over the last hour (per minute) or day (per hour). Bucketed here, not in
// SQL, so the query stays portable between SQLite and PostgreSQL; it reads two timestamps and a code
// per row through the receivedAt and outcomeAt indexes, newest first, at most MAX_ROWS of each.

export const MAX_ROWS = 50_000;
const OUTCOMES = ["stored", "resubmitted", "dead_lettered", "cancelled"] as const;

export async function throughput(range: ThroughputRange, now = new Date()): Promise<Throughput> {
  const { buckets, bucketMs } = THROUGHPUT_RANGES[range];
  const last = Math.floor(now.getTime() / bucketMs) * bucketMs;
  const first = last - (buckets - 1) * bucketMs;
  const since = new Date(first);
  const [deliveries, outcomes] = await Promise.all([
    db().inboundDelivery.findMany({
      where: { receivedAt: { gte: since } },
      select: { receivedAt: true, status: true },
      orderBy: { receivedAt: "desc" },
      take: MAX_ROWS + 1,
    }),
    db().job.findMany({
      where: { outcomeAt: { gte: since } },
      select: { outcomeAt: true, outcome: true },
      orderBy: { outcomeAt: "desc" },
      take: MAX_ROWS + 1,
    }),
  ]);
  const points = new Map<number, ThroughputPoint>();
  for (let t = first; t <= last; t += bucketMs)
    points.set(t, { t, accepted: 0, refused: 0, stored: 0, resubmitted: 0, dead_lettered: 0, cancelled: 0 });
  const at = (d: Date) => points.get(Math.floor(d.getTime() / bucketMs) * bucketMs);
  for (const d of deliveries.slice(0, MAX_ROWS)) {
    const p = at(d.receivedAt);
    if (p) p[d.status >= 200 && d.status < 300 ? "accepted" : "refused"]++;
  }
  for (const j of outcomes.slice(0, MAX_ROWS)) {
    const p = j.outcomeAt ? at(j.outcomeAt) : undefined;
    const o = OUTCOMES.find((x) => x === j.outcome);
    if (p && o) p[o]++;
  }
  const list = [...points.values()];
  const totals = { accepted: 0, refused: 0, stored: 0, resubmitted: 0, dead_lettered: 0, cancelled: 0 };
  for (const p of list) for (const k of Object.keys(totals) as Array<keyof typeof totals>) totals[k] += p[k];
  return {
    range,
    bucketMs,
    from: since.toISOString(),
    to: now.toISOString(),
    points: list,
    totals,
    truncated: deliveries.length > MAX_ROWS || outcomes.length > MAX_ROWS,
  };
}
