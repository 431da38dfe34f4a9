import { z } from "zod";
import { whsecSchema } from "../signing/client";
import { DESTINATION_TYPES, sinkConfigSchemas } from "./sink-config";

// Forwarding's API contracts, shared by the routes, the domain and the Outbound page (no server code
// here). A destination's secret appears whole in one answer only: the 201 that created it.

export const FORWARD_EVENTS = [
  "job.stored",
  "job.dead_lettered",
  "job.cancelled",
  "run.completed",
  "url.changed",
] as const;
/** The job events: what the default destination (TALLY_FORWARD_URL) has always received; run.completed and url.changed are asked for. */
export const JOB_EVENTS = ["job.stored", "job.dead_lettered", "job.cancelled"] as const;
export type ForwardEvent = (typeof FORWARD_EVENTS)[number];

export const destinationUrlSchema = z
  .string({ error: "url is required" })
  .trim()
  .max(2048, { error: "url must be at most 2048 characters" })
  .pipe(z.url({ protocol: /^https?$/, error: "url must be an http:// or https:// URL" }))
  // Credentials in a URL would be shown on the page; the signature already authenticates Tally.
  // Zod runs this even after the URL check failed, so an unparsable value must not throw here.
  .refine(
    (u) => {
      if (!URL.canParse(u)) return true;
      const parsed = new URL(u);
      return parsed.username === "" && parsed.password === "";
    },
    { error: "url must not carry a user name or password" },
  );

const eventsSchema = z
  .array(z.enum(FORWARD_EVENTS, { error: `each event must be one of ${FORWARD_EVENTS.join(", ")}` }), {
    error: "events must be a list",
  })
  .min(1, { error: "events must name at least one event" })
  .max(FORWARD_EVENTS.length)
  .refine((e) => new Set(e).size === e.length, { error: "events must not repeat" });

/**
 * `webhook` (the default) takes `url` and an optional `secret`; every other type takes its `config`
 * (lib/outbound/sink-config.ts), checked here field by field so a 400 names the field that is wrong.
 */
export const createDestinationSchema = z
  .strictObject({
    type: z
      .enum(DESTINATION_TYPES, { error: `type must be one of ${DESTINATION_TYPES.join(", ")}` })
      .default("webhook"),
    url: destinationUrlSchema.optional(),
    events: eventsSchema,
    secret: whsecSchema.optional(),
    config: z.record(z.string(), z.unknown(), { error: "config must be an object" }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type === "webhook") {
      if (v.url === undefined) ctx.addIssue({ code: "custom", path: ["url"], message: "url is required" });
      if (v.config !== undefined)
        ctx.addIssue({ code: "custom", path: ["config"], message: "config is for sink types; a webhook takes url" });
      return;
    }
    if (v.url !== undefined || v.secret !== undefined)
      ctx.addIssue({
        code: "custom",
        path: [v.url !== undefined ? "url" : "secret"],
        message: `a ${v.type} destination takes config, not url or secret`,
      });
    if (v.config === undefined) {
      ctx.addIssue({ code: "custom", path: ["config"], message: `config is required for type ${v.type}` });
      return;
    }
    const parsed = sinkConfigSchemas[v.type].safeParse(v.config);
    if (!parsed.success)
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: ["config", ...issue.path.map(String)], message: issue.message });
  });
export type CreateDestination = z.input<typeof createDestinationSchema>;

export const destinationSchema = z.object({
  id: z.string(),
  type: z.string(),
  /** A webhook's URL, or a sink's target; credentials masked either way. */
  url: z.string(),
  /** A sink's config with every credential masked; null for a webhook. */
  config: z.record(z.string(), z.unknown()).nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  source: z.string(),
  secretLast4: z.string().max(4),
  createdAt: z.string(),
  disabledAt: z.string().nullable(),
});
export type DestinationView = z.infer<typeof destinationSchema>;
export const destinationListSchema = z.object({ items: z.array(destinationSchema) });

/** POST /api/destinations: the only answer that carries the whole secret. */
export const createdDestinationSchema = destinationSchema.extend({
  /** A webhook's signing secret, whole; a sink has none (its credentials are never returned). */
  secret: z.string().min(1).optional(),
});

export const DELIVERY_STATUSES = ["pending", "retrying", "delivered", "dead", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** What an operator may send again: a delivery still failing or one that gave up. */
export const REPLAYABLE: readonly DeliveryStatus[] = ["retrying", "dead"];

export const deliveryListQuerySchema = z.object({
  destinationId: z.string().max(64).optional(),
  status: z.enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}` }).optional(),
  jobId: z.string().max(200).optional(),
  /** Opaque: a nextCursor of this list, passed back unchanged (checked by the list: lib/keyset.ts). */
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(200).default(50),
});
export type DeliveryListQuery = z.infer<typeof deliveryListQuerySchema>;

export const deliveryRowSchema = z.object({
  id: z.number(),
  destinationId: z.string(),
  destinationUrl: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  jobId: z.string(),
  status: z.string(),
  attempts: z.number(),
  replays: z.number(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastLatencyMs: z.number().nullable(),
  nextAttemptAt: z.string().nullable(),
  retryUntil: z.string(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type DeliveryRow = z.infer<typeof deliveryRowSchema>;
export const deliveryPageSchema = z.object({ items: z.array(deliveryRowSchema), nextCursor: z.string().nullable() });
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

export const attemptListSchema = z.object({
  items: z.array(
    z.object({
      attempt: z.number(),
      ok: z.boolean(),
      statusCode: z.number().nullable(),
      error: z.string().nullable(),
      latencyMs: z.number(),
      at: z.string(),
    }),
  ),
});
export type AttemptList = z.infer<typeof attemptListSchema>;

export const destinationHealthSchema = z.object({
  destinationId: z.string(),
  /** Share of 2xx among attempts in the window; null with no attempts. */
  successRate: z.number().nullable(),
  attempts: z.number(),
  windowHours: z.number(),
  byStatus: z.record(z.string(), z.number()),
  lastSuccessAt: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type DestinationHealth = z.infer<typeof destinationHealthSchema>;
export const healthListSchema = z.object({ items: z.array(destinationHealthSchema) });

/** Replay one delivery, or every failed delivery of a destination since a time. */
export const replayBodySchema = z.union(
  [
    z.strictObject({ deliveryId: z.number({ error: "deliveryId must be a number" }).int().positive() }),
    z.strictObject({
      destinationId: z.string({ error: "destinationId is required" }).min(1).max(64),
      since: z.iso.datetime({ offset: true, error: "since must be an ISO 8601 time" }),
    }),
  ],
  { error: "send {deliveryId} or {destinationId, since}" },
);
export type ReplayBody = z.infer<typeof replayBodySchema>;
export const replayResultSchema = z.object({ replayed: z.number(), skipped: z.number() });
export type ReplayResult = z.infer<typeof replayResultSchema>;

export const destinationParamsSchema = z.object({ id: z.string().min(1).max(64) });
