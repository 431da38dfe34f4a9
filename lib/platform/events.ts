// The platform's job kinds and the webhook event type that announces each: the one place they are
// spelled. Plain constants (no server-only), so the browser's contracts and the simulator share them.

export const JOB_KINDS = ["extract", "batch", "crawl"] as const;
export type JobKind = (typeof JOB_KINDS)[number];

export const EVENT_TYPES = ["extract_completed", "batch_completed", "crawl_completed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_FOR_KIND = {
  extract: "extract_completed",
  batch: "batch_completed",
  crawl: "crawl_completed",
} as const satisfies Record<JobKind, EventType>;

export const KIND_FOR_EVENT = {
  extract_completed: "extract",
  batch_completed: "batch",
  crawl_completed: "crawl",
} as const satisfies Record<EventType, JobKind>;

/** A job's status as the platform reports it (plus "unknown" before Tally has asked). */
export const JOB_STATUSES = ["queued", "processing", "completed", "failed", "cancelled", "unknown"] as const;
/** A job's outcome in Tally: what it became once settled (pending until then). */
export const JOB_OUTCOMES = ["pending", "stored", "resubmitted", "dead_lettered", "cancelled"] as const;

export const isJobKind = (s: string): s is JobKind => (JOB_KINDS as readonly string[]).includes(s);
export const isEventType = (s: string): s is EventType => (EVENT_TYPES as readonly string[]).includes(s);

/** The kind an event type announces, or undefined for an event type Tally does not know. */
export const kindForEvent = (eventType: string): JobKind | undefined =>
  isEventType(eventType) ? KIND_FOR_EVENT[eventType] : undefined;
