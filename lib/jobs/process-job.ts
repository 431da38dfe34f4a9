import "server-only";
import { z } from "zod";
import { EVENT_TYPES, JOB_KINDS } from "../platform";
import { type EnqueueItem, PRIORITY_BACKLOG, PRIORITY_FRESH } from "../queue";

// The process_job queue item, written once: its name, its payload and its dedupe key. Every producer
// (the receiver, polling, replay, reconciliation, a dead letter's retry) builds its item here, so no
// producer spells the kind or the key itself. Kept free of the handler: the receiver imports this.

export const PROCESS_JOB = "process_job";

export const JOB_SOURCES = ["webhook", "replay", "reconcile", "poll", "retry"] as const;
export type JobSource = (typeof JOB_SOURCES)[number];

export const processJobPayload = z.object({
  jobId: z.string().min(1).max(200),
  eventType: z.enum(EVENT_TYPES).nullish(),
  kind: z.enum(JOB_KINDS).nullish(),
  deliveryId: z.string().nullish(),
  source: z.enum(JOB_SOURCES).default("webhook"),
});
export type ProcessJobPayload = z.infer<typeof processJobPayload>;

/**
 * Jobs found by reconciliation are a backlog (history, an outage): claimed after today's work, and
 * their platform calls rank after everyone else's in the rate budget (lib/platform/purpose.ts).
 */
export const isBacklog = (p: ProcessJobPayload): boolean => p.source === "reconcile";

/** At most one live item per job: a second producer's insert for the same job is "already queued". */
export const jobDedupeKey = (jobId: string): string => `job:${jobId}`;

export type ProcessJobItem = EnqueueItem & {
  kind: typeof PROCESS_JOB;
  payload: ProcessJobPayload;
  jobId: string;
  dedupeKey: string;
};

/** The item that makes the worker fetch `jobId`'s state from the platform and settle it. */
export function processJobItem(
  p: z.input<typeof processJobPayload>,
  opts: { availableAt?: Date } = {},
): ProcessJobItem {
  const payload = processJobPayload.parse(p);
  const priority = isBacklog(payload) ? PRIORITY_BACKLOG : PRIORITY_FRESH;
  return {
    kind: PROCESS_JOB,
    payload,
    jobId: payload.jobId,
    dedupeKey: jobDedupeKey(payload.jobId),
    priority,
    ...opts,
  };
}
