import "server-only";
import { getConfig } from "../config";
import { z } from "zod";
import { db, sqlInt } from "../db";

// A delivery as the forward_event handler finds it, and what to do with it before anything is sent:
// nothing (it was delivered or skipped meanwhile), finish it without an attempt (its destination was
// disabled, its retry window is over), or send it within its retry window. The same rules for the
// delivery a worker claimed and for the others a sink batch takes with it (lib/outbound/sink-batch.ts).

const date = z.coerce.date();

const loadedRow = z.object({
  id: sqlInt,
  destinationId: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  jobId: z.string(),
  outcome: z.string(),
  status: z.string(),
  attempts: sqlInt,
  replays: sqlInt,
  lastStatusCode: sqlInt.nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: sqlInt.nullable(),
  nextAttemptAt: date.nullable(),
  retryUntil: date,
  deliveredAt: date.nullable(),
  createdAt: date,
  updatedAt: date,
  dType: z.string(),
  dUrl: z.string(),
  dConfig: z.string().nullable(),
  // SQLite answers 0 or 1.
  dEnabled: z.union([z.boolean(), z.number(), z.bigint()]).transform((v) => v === true || Number(v) === 1),
  dSecret: z.string(),
  dSource: z.string(),
});

/**
 * The delivery with the destination fields its sending needs, secret and config included. One raw
 * read: the ORM's findUnique with its include was two statements and most of a millisecond more, once
 * per webhook and once per sink batch.
 */
export async function loadDelivery(id: number) {
  const rows = await db().$queryRaw`
    SELECT d."id", d."destinationId", d."eventId", d."eventType", d."jobId", d."outcome", d."status", d."attempts",
      d."replays", d."lastStatusCode", d."lastError", d."lastLatencyMs", d."nextAttemptAt", d."retryUntil",
      d."deliveredAt", d."createdAt", d."updatedAt", t."type" AS "dType", t."url" AS "dUrl", t."config" AS "dConfig",
      t."enabled" AS "dEnabled", t."secret" AS "dSecret", t."source" AS "dSource"
    FROM "OutboundDelivery" d JOIN "Destination" t ON t."id" = d."destinationId"
    WHERE d."id" = ${id}`;
  const [row] = loadedRow.array().parse(rows);
  if (!row) return null;
  const { dType, dUrl, dConfig, dEnabled, dSecret, dSource, ...delivery } = row;
  return {
    ...delivery,
    destination: { type: dType, url: dUrl, config: dConfig, enabled: dEnabled, secret: dSecret, source: dSource },
  };
}

export type LoadedDelivery = NonNullable<Awaited<ReturnType<typeof loadDelivery>>>;

/** A delivery's end without an attempt. */
export type Finish = { deliveryId: number; status: "dead" | "skipped"; lastError: string | null };

export type Plan = { kind: "settled" } | { kind: "finish"; finish: Finish } | { kind: "send"; retryUntil: Date };

type Planned = { id: number; status: string; attempts: number; retryUntil: Date; lastError: string | null };

export function planDelivery(d: Planned, destinationEnabled: boolean, now: number): Plan {
  if (d.status === "delivered" || d.status === "skipped") return { kind: "settled" };
  if (!destinationEnabled)
    return {
      kind: "finish",
      finish: { deliveryId: d.id, status: "skipped", lastError: "destination disabled; not sent" },
    };
  // The window runs from the first attempt: an outbox that waited (workers down a day) still tries.
  const retryUntil =
    d.attempts === 0
      ? new Date(Math.max(d.retryUntil.getTime(), now + getConfig().TALLY_FORWARD_RETRY_HOURS * 3_600_000))
      : d.retryUntil;
  if (now > retryUntil.getTime())
    return {
      kind: "finish",
      finish: { deliveryId: d.id, status: "dead", lastError: d.lastError ?? "retry window over" },
    };
  return { kind: "send", retryUntil };
}
