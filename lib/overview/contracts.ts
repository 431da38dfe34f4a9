import { z } from "zod";
import { lastRunSchema } from "../operations/client";
import { subscriptionAlertSchema } from "../subscriptions/client";

// GET /api/overview: the overview's figures, shared by the route, the server page and the browser
// (which parses every refresh with it).

/** Every job's outcome; `pending` until one of the other four is settled. */
export const OUTCOMES = ["stored", "resubmitted", "dead_lettered", "cancelled", "pending"] as const;
export type LedgerOutcome = (typeof OUTCOMES)[number];

const count = z.number().int().nonnegative();

export const overviewSchema = z.object({
  generatedAt: z.string(),
  mode: z.enum(["demo", "live"]),
  deliveryMode: z.enum(["webhooks", "polling", "both"]),
  ledger: z.object({
    known: count,
    byOutcome: z.record(z.enum(OUTCOMES), count),
    /** Rows whose outcome is none of the five; should always be 0. */
    unaccounted: z.number().int(),
    /**
     * Items inside stored jobs (one per extract, one per URL or page of a batch or crawl): stored with
     * content or failed, and how many stored jobs hold failed items. A stored job is not 100 % content.
     */
    items: z.object({ total: count, stored: count, failed: count, jobsWithFailed: count }),
    pendingByAge: z.array(z.object({ key: z.string(), label: z.string(), count })),
    pendingAlertMinutes: z.number(),
  }),
  byPlatformStatus: z.array(z.object({ status: z.string(), count })),
  queue: z.object({
    ready: count,
    leased: count,
    dead: count,
    dueNow: count,
    oldestReadyAgeMs: z.number().nullable(),
    expiredLeases: count,
  }),
  deliveries: z.object({
    windowMinutes: z.number(),
    total: count,
    ok: count,
    unauthorized: count,
    successRate: z.number().nullable(),
  }),
  deadLettersOpen: count,
  lastReconciliation: lastRunSchema.nullable(),
  subscriptionAlerts: z.array(subscriptionAlertSchema),
});
export type Overview = z.infer<typeof overviewSchema>;
