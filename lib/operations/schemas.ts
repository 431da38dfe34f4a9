import "server-only";
import { z } from "zod";

// Request shapes of the operations and subscriptions API, shared by the routes and the scripts.

const since = z.iso.datetime({ offset: true, error: "since must be an ISO date-time such as 2026-01-31T12:00:00Z" }).transform((s) => new Date(s));
const id = (name: string) => z.string({ error: `${name} must be a string` }).trim().min(1, { error: `${name} is empty` }).max(200, { error: `${name} is too long` });

export const reconcileBodySchema = z.strictObject({
  olderThanSeconds: z
    .number({ error: "olderThanSeconds must be a number" })
    .int({ error: "olderThanSeconds must be a whole number" })
    .min(0, { error: "olderThanSeconds must be at least 0" })
    .max(7 * 86_400, { error: "olderThanSeconds must be at most 604800 (7 days)" })
    .optional(),
  since: since.optional(),
});
export type ReconcileBody = z.output<typeof reconcileBodySchema>;

export const replayBodySchema = z.strictObject({ subscriptionId: id("subscriptionId").optional(), since: since.optional() });
export type ReplayBody = z.output<typeof replayBodySchema>;

export const secretBodySchema = z.strictObject({
  secret: z
    .string({ error: "secret must be a string" })
    .trim()
    .min(8, { error: "secret must be at least 8 characters" })
    .max(1000, { error: "secret must be at most 1000 characters" }),
});

export const subscriptionParamsSchema = z.object({ id: id("id") });
export const runParamsSchema = z.object({ runId: id("runId") });

export const runListQuerySchema = z.object({
  kind: z.enum(["reconcile", "replay", "rotate", "register", "poll"], { error: "kind must be reconcile, replay, rotate, register or poll" }).optional(),
  limit: z.coerce.number({ error: "limit must be a number" }).int().min(1).max(200).optional(),
});
