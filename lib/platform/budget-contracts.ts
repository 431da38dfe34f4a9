import { z } from "zod";

// GET /api/budget: the platform calls of the last hour against the rate budget, by purpose and answer
// class, and what a finished job cost. No server-only imports: the browser parses with it.

const purposeCounts = z.record(z.string(), z.number().int());

export const budgetViewSchema = z.object({
  generatedAt: z.string(),
  from: z.string(),
  to: z.string(),
  /** TALLY_API_RPS and the same per minute: the line every per-minute bar is drawn against. */
  requestsPerSecond: z.number(),
  budgetPerMinute: z.number(),
  purposes: z.array(z.string()),
  answerClasses: z.array(z.string()),
  /** One point per minute of the hour, oldest first, zeros included. */
  minutes: z.array(
    z.object({ t: z.number(), total: z.number().int(), byPurpose: purposeCounts, rateLimited: z.number().int() }),
  ),
  byPurpose: z.array(
    z.object({
      purpose: z.string(),
      calls: z.number().int(),
      perMinute: z.number(),
      peakPerMinute: z.number().int(),
      answers: purposeCounts,
    }),
  ),
  answers: purposeCounts,
  totalCalls: z.number().int(),
  peakPerMinute: z.number().int(),
  /** 429 answers in the hour (each one paused every process), and the pause in force now. */
  rateLimited: z.object({
    answers: z.number().int(),
    minutesWithPause: z.number().int(),
    pausedForMs: z.number().int(),
  }),
  /**
   * The circuit breaker every process shares (lib/platform/shared-breaker.ts): open while the platform
   * counts as down (calls in a row answered 5xx or not at all), probing while one process sends the
   * probe. Who opened it (host:pid:tag) and why stay after it closes, beside when and by whom it closed.
   */
  breaker: z.object({
    state: z.enum(["closed", "open", "probing"]),
    /** While open: since when. */
    since: z.string().nullable(),
    openedBy: z.string().nullable(),
    /** The failure that opened it, or the latest failed probe's. */
    reason: z.string().nullable(),
    failedInARow: z.number().int(),
    /** While open: no process sends before this; then one probes. */
    nextProbeAt: z.string().nullable(),
    probingBy: z.string().nullable(),
    /** The last outage's end, and the process whose answer ended it. */
    closedAt: z.string().nullable(),
    closedBy: z.string().nullable(),
  }),
  /** Jobs whose outcome was recorded in the hour, by how Tally heard they settled. */
  finished: z.object({
    total: z.number().int(),
    byWebhook: z.number().int(),
    byPoll: z.number().int(),
    other: z.number().int(),
  }),
  /** Calls per finished job; null with no finished job. */
  perJob: z.object({
    /** every call but submits */
    allButSubmits: z.number().nullable(),
    /** the worker's refetch and result pages: what a job noticed by its webhook costs */
    webhookTerms: z.number().nullable(),
    /** the same plus the polls and sweeps that noticed the jobs polling found */
    pollingTerms: z.number().nullable(),
  }),
});
export type BudgetView = z.infer<typeof budgetViewSchema>;
