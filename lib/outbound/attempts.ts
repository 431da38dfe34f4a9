import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { getConfig } from "../config";
import { inList, type Tx } from "../db";
import { log } from "../log";
import { backoffMs } from "../queue";
import type { Finish } from "./delivery";
import type { SendResult } from "./send";

// What an attempt leaves behind: an OutboundAttempt row, and its delivery's new state: delivered;
// retrying after a backoff (exponential, with jitter) while the retry window lasts; dead (an outbound
// dead letter) once the next try would fall after it. Written in the caller's transaction, for one
// webhook attempt or a whole sink batch alike, in two statements per group of equal outcome. Attempts
// of the same number recorded together share one backoff, so a batch that failed together comes due
// together and goes as a batch again.

export type Attempt = {
  deliveryId: number;
  destinationId: string;
  /** The delivery's attempts before this one. */
  before: number;
  retryUntil: Date;
  result: SendResult;
};

export type Decided = Attempt & { status: "delivered" | "retrying" | "dead"; delayMs: number };

/** The outcome of each attempt, before anything is written. */
export function decide(attempts: Attempt[], now: number): Decided[] {
  const config = getConfig();
  const delays = new Map<number, number>();
  const delayOf = (n: number) => {
    if (!delays.has(n))
      delays.set(n, backoffMs(n, config.TALLY_FORWARD_RETRY_INITIAL_MS, config.TALLY_FORWARD_RETRY_MAX_MS));
    return delays.get(n) ?? 0;
  };
  return attempts.map((a) => {
    const delayMs = delayOf(a.before + 1);
    const status = a.result.ok ? "delivered" : now + delayMs > a.retryUntil.getTime() ? "dead" : "retrying";
    return { ...a, status, delayMs };
  });
}

/** The items in groups of equal key, in first-seen order. */
function grouped<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return [...groups.values()];
}

/** One change to many delivery rows. Column names come from this file only, never from input. */
async function update(tx: Tx, ids: number[], data: Record<string, unknown>): Promise<void> {
  const set = Object.entries({ ...data, updatedAt: new Date() }).map(
    ([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value}`,
  );
  await tx.$executeRaw`UPDATE "OutboundDelivery" SET ${Prisma.join(set)} WHERE ${inList('"id"', ids)}`;
}

/** What an attempt changes in its delivery row. */
function change(d: Decided, now: number): Record<string, unknown> {
  return {
    status: d.status,
    attempts: d.before + 1,
    // Set on the first attempt (lib/outbound/delivery.ts); the same value on every later one.
    ...(d.before === 0 ? { retryUntil: d.retryUntil } : {}),
    lastStatusCode: d.result.statusCode,
    lastLatencyMs: d.result.latencyMs,
    lastError: d.result.ok ? null : d.result.error,
    nextAttemptAt: d.status === "retrying" ? new Date(now + d.delayMs) : null,
    ...(d.result.ok ? { deliveredAt: new Date(now) } : {}),
  };
}

/**
 * Records decided attempts: an attempt row each and their deliveries' new state, two statements per
 * group of equal outcome (raw SQL, the attempt rows copied from the delivery rows: a batch's hundred
 * rows of bound values cost Prisma more than the write itself).
 */
export async function writeAttempts(tx: Tx, decided: Decided[], now: number): Promise<void> {
  const at = new Date(now);
  for (const group of grouped(decided, (d) => JSON.stringify(change(d, now)))) {
    const [d] = group;
    const ids = group.map((x) => x.deliveryId);
    await tx.$executeRaw`
      INSERT INTO "OutboundAttempt" ("deliveryId", "destinationId", "attempt", "ok", "statusCode", "error", "latencyMs", "at")
      SELECT "id", "destinationId", ${d.before + 1}, ${d.result.ok}, ${d.result.statusCode}, ${d.result.error}, ${d.result.latencyMs}, ${at}
      FROM "OutboundDelivery" WHERE ${inList('"id"', ids)}`;
    await update(tx, ids, change(d, now));
  }
}

/** Deliveries that end without an attempt (window over, destination disabled, job gone). */
export async function writeFinishes(tx: Tx, finishes: Finish[]): Promise<void> {
  for (const group of grouped(finishes, (f) => `${f.status}\u0000${f.lastError}`)) {
    const [f] = group;
    await update(
      tx,
      group.map((x) => x.deliveryId),
      { status: f.status, lastError: f.lastError, nextAttemptAt: null },
    );
  }
}

/** Once committed: the deliveries that just became outbound dead letters, said in the log. */
export function logGivenUp(decided: Decided[]): void {
  for (const d of decided)
    if (d.status === "dead")
      log.warn("outbound event dead-lettered: retry window over", {
        deliveryId: d.deliveryId,
        destinationId: d.destinationId,
        attempts: d.before + 1,
        error: d.result.error,
      });
}
