import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { z } from "zod";
import { getConfig } from "../config";
import type { Tx } from "../db";
import { enqueueMany, type EnqueueItem } from "../queue";
import type { ForwardEvent } from "./contracts";
import { parseEvents } from "./destinations";
import { webhookId } from "./webhook-id";

// The outbox: an outcome committed is an event that will be sent. settleOutcome calls
// enqueueOutcomeEvents inside the transaction that sets the outcome, so the delivery rows and their
// queue items commit with it or not at all. Events go to the destinations enabled at that moment; a
// destination registered later does not receive earlier outcomes (receivers backfill with the pull API).

/** The queue item kind that sends one delivery; its name and dedupe key are written only here. */
export const FORWARD_EVENT = "forward_event";
export const forwardEventPayload = z.object({ deliveryId: z.number().int().positive() });
export type ForwardEventPayload = z.infer<typeof forwardEventPayload>;

/** The dedupe key of a delivery's item: at most one live item per delivery. */
export function forwardDedupeKey(deliveryId: number): string {
  return `forward:${deliveryId}`;
}

/** forwardDedupeKey in SQL, of a delivery id column written in the code (`d."id"`). */
export function forwardDedupeKeySql(idColumn: string): Prisma.Sql {
  return Prisma.sql`'forward:' || ${Prisma.raw(idColumn)}`;
}

/** The enqueue item for one delivery. */
export function forwardEventItem(deliveryId: number, availableAt?: Date): EnqueueItem {
  return {
    kind: FORWARD_EVENT,
    payload: { deliveryId } satisfies ForwardEventPayload,
    dedupeKey: forwardDedupeKey(deliveryId),
    availableAt,
  };
}

const EVENT_OF: Partial<Record<string, ForwardEvent>> = {
  stored: "job.stored",
  dead_lettered: "job.dead_lettered",
  cancelled: "job.cancelled",
  // resubmitted is no event: the new job's own outcome will be one.
};

export function eventTypeOf(outcome: string): ForwardEvent | undefined {
  return EVENT_OF[outcome];
}

export { webhookId };

const insertedId = z.object({ id: z.coerce.number() });
const destinationRow = z.object({ id: z.string(), events: z.string() });

// Read in every outcome's transaction (so an outcome goes to the destinations enabled when it commits,
// in whichever process enabled them): raw SQL, a fifth of a Prisma model query's cost on the hot path.
async function enabledDestinations(tx: Tx): Promise<z.infer<typeof destinationRow>[]> {
  const rows = await tx.$queryRaw`SELECT "id", "events" FROM "Destination" WHERE "enabled" = ${true}`;
  return destinationRow.array().parse(rows);
}

/** Writes one delivery per subscribed, enabled destination and queues it; returns how many. */
export async function enqueueOutcomeEvents(tx: Tx, jobId: string, outcome: string): Promise<number> {
  const eventType = eventTypeOf(outcome);
  if (!eventType) return 0;
  return enqueueEvent(tx, eventType, jobId, outcome);
}

/**
 * The outbox for any event: `subjectId` is the job id (job.* events) or the run id (run.completed),
 * kept in OutboundDelivery.jobId; the webhook-id is derived from it and `outcome`, so the same event
 * written twice is one delivery per destination.
 */
export async function enqueueEvent(
  tx: Tx,
  eventType: ForwardEvent,
  subjectId: string,
  outcome: string,
): Promise<number> {
  const jobId = subjectId;
  const destinations = await enabledDestinations(tx);
  const targets = destinations.filter((d) => parseEvents(d.events).includes(eventType));
  if (targets.length === 0) return 0;
  const now = new Date();
  const retryUntil = new Date(now.getTime() + getConfig().TALLY_FORWARD_RETRY_HOURS * 3_600_000);
  const eventId = webhookId(jobId, outcome);
  const ids: number[] = [];
  for (const d of targets) {
    // The same outcome set twice (a dead-lettered job retried by an operator that dead-letters
    // again) is the same event: the unique (destination, webhook-id) keeps one delivery.
    const rows = await tx.$queryRaw`
      INSERT INTO "OutboundDelivery" ("destinationId", "eventId", "eventType", "jobId", "outcome", "status", "attempts", "replays",
        "retryUntil", "createdAt", "updatedAt")
      VALUES (${d.id}, ${eventId}, ${eventType}, ${jobId}, ${outcome}, 'pending', 0, 0, ${retryUntil}, ${now}, ${now})
      ON CONFLICT ("destinationId", "eventId") DO NOTHING
      RETURNING "id"`;
    ids.push(
      ...insertedId
        .array()
        .parse(rows)
        .map((r) => r.id),
    );
  }
  if (ids.length === 0) return 0;
  await enqueueMany(
    tx,
    ids.map((id) => forwardEventItem(id, now)),
  );
  return ids.length;
}

const BULK_ROWS = 200;

/**
 * The outbox for many events of one type at once (url.changed: one per changed URL of a run), in the
 * caller's transaction: one multi-row INSERT per 200 deliveries, the same webhook-ids and the same
 * "written twice is one delivery" rule as enqueueEvent. Returns how many deliveries were written.
 */
export async function enqueueEvents(
  tx: Tx,
  eventType: ForwardEvent,
  subjects: { subjectId: string; outcome: string }[],
): Promise<number> {
  if (subjects.length === 0) return 0;
  const destinations = await enabledDestinations(tx);
  const targets = destinations.filter((d) => parseEvents(d.events).includes(eventType));
  if (targets.length === 0) return 0;
  const now = new Date();
  const retryUntil = new Date(now.getTime() + getConfig().TALLY_FORWARD_RETRY_HOURS * 3_600_000);
  const ids: number[] = [];
  for (const d of targets) {
    for (let i = 0; i < subjects.length; i += BULK_ROWS) {
      const values = subjects
        .slice(i, i + BULK_ROWS)
        .map(
          (s) =>
            Prisma.sql`(${d.id}, ${webhookId(s.subjectId, s.outcome)}, ${eventType}, ${s.subjectId}, ${s.outcome}, 'pending', 0, 0, ${retryUntil}, ${now}, ${now})`,
        );
      const rows = await tx.$queryRaw`
        INSERT INTO "OutboundDelivery" ("destinationId", "eventId", "eventType", "jobId", "outcome", "status", "attempts", "replays",
          "retryUntil", "createdAt", "updatedAt")
        VALUES ${Prisma.join(values)}
        ON CONFLICT ("destinationId", "eventId") DO NOTHING
        RETURNING "id"`;
      ids.push(
        ...insertedId
          .array()
          .parse(rows)
          .map((r) => r.id),
      );
    }
  }
  await enqueueMany(
    tx,
    ids.map((id) => forwardEventItem(id, now)),
  );
  return ids.length;
}

/** Whether any enabled destination asks for `eventType` (so a producer of many events can skip reading them). */
export async function hasSubscribers(tx: Tx, eventType: ForwardEvent): Promise<boolean> {
  const destinations = await enabledDestinations(tx);
  return destinations.some((d) => parseEvents(d.events).includes(eventType));
}
