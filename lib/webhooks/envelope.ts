import "server-only";
import { z } from "zod";
import { EVENT_TYPES, type EventType } from "../platform";
import type { HeadersLike } from "../signing";

// What a signed delivery must tell us: the job id, the event type and (optionally) a delivery id.
// Accepts the documented envelope {event, webhook_id, delivery_id, timestamp, data: {job_id}} and the
// source article's flat shape {job_id, event_type, id}; falls back to the X-Webhook-* headers.

const KNOWN_EVENTS = EVENT_TYPES;
type KnownEvent = EventType;

const jobId = z
  .string({ error: "job_id must be a string" })
  .trim()
  .min(1, { error: "job_id is empty" })
  .max(128, { error: "job_id is longer than 128 characters" })
  .regex(/^[A-Za-z0-9._:-]+$/, { error: "job_id has characters a job id never has" });
// Labels are stored (the receipt, the queue item, the log row): PostgreSQL refuses a NUL in any text
// value, so one would fail the write (a 503 the platform retries forever); refused as 400 on both stores.
const label = (name: string) =>
  z
    .string({ error: `${name} must be a string` })
    .max(200, { error: `${name} is longer than 200 characters` })
    .refine((s) => !s.includes("\u0000"), { error: `${name} contains a NUL character` });

const envelopeSchema = z.looseObject({
  event: label("event").optional(),
  event_type: label("event_type").optional(),
  delivery_id: label("delivery_id").optional(),
  id: z.union([label("id"), z.number()], { error: "id must be a string or a number" }).optional(),
  job_id: jobId.optional(),
  data: z.looseObject({ job_id: jobId.optional() }, { error: "data must be an object" }).nullable().optional(),
});

export type Envelope = { jobId: string; eventType: string | null; deliveryId: string | null };

export type EnvelopeResult = { ok: true; envelope: Envelope } | { ok: false; reason: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Parses verified bytes. Every failure is a reason a person can act on (answered as 400). */
export function parseEnvelope(body: Uint8Array, headers: HeadersLike): EnvelopeResult {
  if (body.length === 0) return { ok: false, reason: "empty body" };
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(body));
  } catch {
    return { ok: false, reason: "body is not valid UTF-8 JSON" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, reason: "body must be a JSON object" };
  }
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, reason: issue?.message ?? "body does not match the webhook envelope" };
  }
  const e = parsed.data;
  const id = e.data?.job_id ?? e.job_id;
  if (!id) return { ok: false, reason: "no job id (expected data.job_id or job_id)" };
  const header = (name: string) => headers.get(name)?.slice(0, 200) || null;
  return {
    ok: true,
    envelope: {
      jobId: id,
      eventType: e.event ?? e.event_type ?? header("x-webhook-event"),
      deliveryId: e.delivery_id ?? (e.id === undefined ? undefined : String(e.id)) ?? header("x-webhook-delivery-id"),
    },
  };
}

export function isKnownEvent(event: string): event is KnownEvent {
  return (KNOWN_EVENTS as readonly string[]).includes(event);
}
