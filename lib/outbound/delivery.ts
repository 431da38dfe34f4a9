import "server-only";
import { getConfig } from "../config";
import { db } from "../db";

// A delivery as the forward_event handler finds it, and what to do with it before anything is sent:
// nothing (it was delivered or skipped meanwhile), finish it without an attempt (its destination was
// disabled, its retry window is over), or send it within its retry window. The same rules for the
// delivery a worker claimed and for the others a sink batch takes with it (lib/outbound/sink-batch.ts).

export async function loadDelivery(id: number) {
  return db().outboundDelivery.findUnique({
    where: { id },
    include: {
      destination: { select: { type: true, url: true, config: true, enabled: true, secret: true, source: true } },
    },
  });
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
