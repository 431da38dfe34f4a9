import "server-only";
import { db } from "../db";
import { SPIKE_THRESHOLD, SPIKE_WINDOW_MINUTES, type Spike, type UnauthorizedChart } from "./unauthorized-contracts";

// 401s per minute per subscription for the Webhooks & secrets chart. Bucketed here rather than in
// SQL so the query stays portable (SQLite and PostgreSQL format dates differently); it reads only
// (receivedAt, subscriptionId) of the 401 rows through the (status, receivedAt) index.

const MINUTE = 60_000;
/**
 * A flood of unsigned requests must not make the chart read unbounded rows: past this many 401s in
 * the window (about 300 ms of reading here) it undercounts the oldest minutes and says so.
 */
export const MAX_ROWS = 20_000;
const UNKNOWN = "unknown";

export async function unauthorizedChart({
  minutes = 60,
  now = new Date(),
}: { minutes?: number; now?: Date } = {}): Promise<UnauthorizedChart> {
  const last = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const first = last - (minutes - 1) * MINUTE;
  const [rows, subscriptions, rotations] = await Promise.all([
    db().inboundDelivery.findMany({
      where: { status: 401, receivedAt: { gte: new Date(first) } },
      select: { receivedAt: true, subscriptionId: true },
      // newest first, so a truncated read loses the oldest minutes, not the spike happening now
      orderBy: { receivedAt: "desc" },
      take: MAX_ROWS + 1,
    }),
    db().subscription.findMany({
      select: { id: true, eventType: true, description: true, url: true, rotatedAt: true },
      orderBy: [{ eventType: "asc" }, { id: "asc" }],
    }),
    db().secretRotation.findMany({
      where: { at: { gte: new Date(first) } },
      select: { subscriptionId: true, at: true, source: true, actor: true },
      orderBy: { at: "asc" },
    }),
  ]);
  const truncated = rows.length > MAX_ROWS;
  const counted = truncated ? rows.slice(0, MAX_ROWS) : rows;

  const known = new Set(subscriptions.map((s) => s.id));
  const keyOf = (id: string | null) => (id && known.has(id) ? id : UNKNOWN);
  const buckets = new Map<number, Record<string, number>>();
  const totals = new Map<string, number>();
  for (const r of counted) {
    const t = Math.floor(r.receivedAt.getTime() / MINUTE) * MINUTE;
    const key = keyOf(r.subscriptionId);
    const b = buckets.get(t) ?? {};
    b[key] = (b[key] ?? 0) + 1;
    buckets.set(t, b);
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }

  const sameType = (eventType: string) => subscriptions.filter((s) => s.eventType === eventType).length > 1;
  const series = subscriptions.map((s) => ({
    key: s.id,
    label: sameType(s.eventType) ? `${s.eventType} (${s.id.slice(-6)})` : s.eventType,
    total: totals.get(s.id) ?? 0,
  }));
  if (totals.has(UNKNOWN))
    series.push({ key: UNKNOWN, label: "no subscription (shared URL)", total: totals.get(UNKNOWN) ?? 0 });

  const points = [];
  for (let t = first; t <= last; t += MINUTE) points.push({ t, counts: buckets.get(t) ?? {} });

  const recentFrom = now.getTime() - SPIKE_WINDOW_MINUTES * MINUTE;
  const spikes: Spike[] = [];
  for (const s of subscriptions) {
    const mine = counted.filter((r) => r.subscriptionId === s.id);
    const recent = mine.filter((r) => r.receivedAt.getTime() >= recentFrom).length;
    const last401 = mine[0]?.receivedAt;
    if (recent < SPIKE_THRESHOLD || !last401) continue;
    // A rotation or a secret set after the last 401 is the fix already under way (its replay follows).
    if (s.rotatedAt && s.rotatedAt > last401) continue;
    const lastOk = await lastAccepted(s.id, new Date(first));
    // Deliveries going through again after the last 401: the spike is over.
    if (lastOk && lastOk > last401) continue;
    const sinceOk = mine.filter((r) => !lastOk || r.receivedAt > lastOk);
    spikes.push({
      subscriptionId: s.id,
      eventType: s.eventType,
      description: s.description,
      url: s.url,
      recent,
      // the first 401 after the last accepted delivery: where the current run of failures began
      since: (sinceOk[sinceOk.length - 1]?.receivedAt ?? last401).toISOString(),
      lastRotationAt: s.rotatedAt?.toISOString() ?? null,
    });
  }

  return {
    from: new Date(first).toISOString(),
    to: now.toISOString(),
    series,
    points,
    markers: rotations.map((r) => ({ ...r, at: r.at.toISOString() })),
    spikes,
    truncated,
  };
}

/** The subscription's last accepted delivery, looked for within the chart's window only (bounded read). */
async function lastAccepted(subscriptionId: string, windowStart: Date): Promise<Date | undefined> {
  const row = await db().inboundDelivery.findFirst({
    where: { subscriptionId, status: { gte: 200, lte: 299 }, receivedAt: { gte: windowStart } },
    orderBy: { receivedAt: "desc" },
    select: { receivedAt: true },
  });
  return row?.receivedAt;
}
