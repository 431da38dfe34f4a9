import "server-only";
import { z } from "zod";
import { getConfig } from "../config";
import { db, sqlInt } from "../db";
import { processJobItem } from "../jobs";
import { enqueue } from "../queue";
import { inSpan } from "../tracing";
import { isTerminal, PlatformNotFound, RateLimited, spreadJitter, type JobKind } from "../platform";
import { claimTick } from "../scheduling";
import { sweepIntervalMs, sweepKind, sweepWindow, SWEEP_MIN_JOBS } from "./poll-sweep";
import { EVENT_FOR_KIND, getPlatformClient, isJobKind } from "../platform";
import { singleton } from "../runtime";

// The polling fallback: one scheduler for every job, not a loop per job. Due jobs are claimed with
// one UPDATE … RETURNING (safe when the server and `npm run worker` both poll), checked through the
// shared client (one rate budget, one 429 pause). When more than a few jobs of a kind are being
// polled, one list sweep (poll-sweep.ts) checks them all; the rest, and stragglers outside its window,
// get a status call each and their next time by exponential backoff with a ±20% spread (spreadJitter
// says why not full jitter). The deadline is checked before every call, so a long 429 storm cannot
// keep a job polling forever (the source article's bug); an expired job is left to reconciliation.

export type PollBatch = {
  claimed: number;
  settled: number;
  notYet: number;
  expired: number;
  rateLimited: boolean;
  errors: number;
  sweeps: number;
  sweepPages: number;
};

/** This process's running totals, for the dashboard and tests (status calls are also counted per minute by the client). */
export type PollerStats = {
  batches: number;
  polls: number;
  settled: number;
  expired: number;
  rateLimited: number;
  errors: number;
  sweeps: number;
  sweepPages: number;
};
export function pollerStats(): PollerStats {
  return singleton<PollerStats>("poller.stats", () => ({
    batches: 0,
    polls: 0,
    settled: 0,
    expired: 0,
    rateLimited: 0,
    errors: 0,
    sweeps: 0,
    sweepPages: 0,
  }));
}

/** While a job is being checked its nextPollAt is pushed out, so a crash only delays it. */
const CLAIM_MS = 60_000;
/** One status call may wait this long for the rate budget before it counts as "not now". */
const CALL_BUDGET_MS = 15_000;
const CONCURRENCY = 4;

const rowSchema = z.object({
  id: z.string(),
  kind: z.string(),
  pollCount: sqlInt,
  pollDeadlineAt: z.coerce.date().nullable(),
  since: z.coerce.date(),
});

/** Webhook mode: jobs with no receipt after TALLY_POLL_NO_WEBHOOK_SECONDS start being polled. */
export async function schedulePollsForSilentJobs(now = new Date()): Promise<number> {
  const c = getConfig();
  const cutoff = new Date(now.getTime() - c.TALLY_POLL_NO_WEBHOOK_SECONDS * 1000);
  const deadline = new Date(now.getTime() + c.TALLY_POLL_DEADLINE_MINUTES * 60_000);
  return db().$executeRaw`
    UPDATE "Job" SET "nextPollAt" = ${now}, "pollDeadlineAt" = COALESCE("pollDeadlineAt", ${deadline}), "updatedAt" = ${now}
    WHERE "outcome" = 'pending' AND "nextPollAt" IS NULL AND "pollExpiredAt" IS NULL AND "createdAt" <= ${cutoff}
      AND NOT EXISTS (SELECT 1 FROM "Receipt" r WHERE r."jobId" = "Job"."id")`;
}

async function claimDue(limit: number, now: Date) {
  const until = new Date(now.getTime() + CLAIM_MS);
  const rows = await db().$queryRaw`
    UPDATE "Job" SET "nextPollAt" = ${until}, "updatedAt" = ${now}
    WHERE "id" IN (SELECT "id" FROM "Job" WHERE "outcome" = 'pending' AND "pollExpiredAt" IS NULL AND "nextPollAt" <= ${now}
                   ORDER BY "nextPollAt" LIMIT ${limit})
      AND "outcome" = 'pending' AND "nextPollAt" <= ${now}
    RETURNING "id", "kind", "pollCount", "pollDeadlineAt", COALESCE("platformCreatedAt", "createdAt") AS "since"`;
  return rowSchema.array().parse(rows);
}

/** Checks one batch of due jobs; never throws for what the platform answers. */
export async function pollDueJobs(opts: { limit?: number } = {}): Promise<PollBatch> {
  const c = getConfig();
  const now = new Date();
  const jobs = await claimDue(opts.limit ?? 20, now);
  const out: PollBatch = {
    claimed: jobs.length,
    settled: 0,
    notYet: 0,
    expired: 0,
    rateLimited: false,
    errors: 0,
    sweeps: 0,
    sweepPages: 0,
  };
  if (jobs.length === 0) return out;
  const client = getPlatformClient();
  const later = (job: (typeof jobs)[number], ms: number, polled = true) =>
    db().job.update({
      where: { id: job.id },
      data: { nextPollAt: new Date(Date.now() + ms), ...(polled ? { pollCount: { increment: 1 } } : {}) },
    });

  // Deadlines first; then one sweep per kind with enough polled jobs; per-job calls for what is left.
  const live: typeof jobs = [];
  for (const job of jobs) {
    if (job.pollDeadlineAt && Date.now() >= job.pollDeadlineAt.getTime()) await expire(job);
    else live.push(job);
  }
  const queue: typeof jobs = [];
  for (const kind of new Set(live.map((j) => (isJobKind(j.kind) ? j.kind : "extract")))) {
    const mine = live.filter((j) => (isJobKind(j.kind) ? j.kind : "extract") === kind);
    const handled = out.rateLimited ? new Set<string>() : await trySweep(kind, mine, now);
    queue.push(...mine.filter((j) => !handled.has(j.id)));
  }

  async function expire(job: (typeof jobs)[number]) {
    await db().job.update({ where: { id: job.id }, data: { pollExpiredAt: new Date(), nextPollAt: null } });
    await db().jobEvent.create({
      data: { jobId: job.id, type: "poll", detail: JSON.stringify({ expired: true, polls: job.pollCount }) },
    });
    out.expired++;
  }

  async function trySweep(kind: JobKind, mine: typeof jobs, at: Date): Promise<Set<string>> {
    const w = await sweepWindow(kind, at);
    const oldest = w.oldest;
    if (w.count <= SWEEP_MIN_JOBS || !oldest) return new Set();
    const interval = sweepIntervalMs();
    // One sweep per kind and interval across all processes; a job due in between waits for the next one.
    if (!(await claimTick(`poll-sweep:${kind}`, Math.round(interval * 0.8)))) {
      const waiting = mine.filter((j) => j.since.getTime() >= oldest.getTime());
      for (const j of waiting) await later(j, spreadJitter(0, interval, interval, Math.random), false);
      return new Set(waiting.map((j) => j.id));
    }
    try {
      const r = await sweepKind(client, kind, oldest);
      out.sweeps++;
      out.sweepPages += r.pages;
      out.settled += r.settled;
      out.notYet += r.notYet;
      return r.handled;
    } catch (err) {
      if (err instanceof RateLimited) out.rateLimited = true;
      else out.errors++;
      return new Set();
    }
  }

  // With tracing on, each job's poll is a trace of its own: the receipt of a job whose webhook never
  // came, which its queue item (queued inside it) continues.
  const pollOne = (job: (typeof jobs)[number]) =>
    inSpan("poll job", { root: true, attributes: { "tally.job.id": job.id, "tally.receipt.source": "poll" } }, () =>
      pollJob(job),
    );
  const pollJob = async (job: (typeof jobs)[number]) => {
    const kind: JobKind = isJobKind(job.kind) ? job.kind : "extract";
    // Deadline first, on every path: a job past it is marked and left to reconciliation.
    if (job.pollDeadlineAt && Date.now() >= job.pollDeadlineAt.getTime()) return expire(job);
    if (out.rateLimited) return later(job, client.rateLimitPauseMs() + Math.random() * c.TALLY_POLL_INITIAL_MS, false);
    const deadline = Math.min(job.pollDeadlineAt?.getTime() ?? Infinity, Date.now() + CALL_BUDGET_MS);
    try {
      const state = await client.getJob(kind, job.id, { deadline, purpose: "poll" });
      if (!isTerminal(state.status)) {
        out.notYet++;
        await later(job, spreadJitter(job.pollCount, c.TALLY_POLL_INITIAL_MS, c.TALLY_POLL_MAX_MS, Math.random));
        return;
      }
      await db().$transaction(async (tx) => {
        await tx.job.update({
          where: { id: job.id },
          data: {
            platformStatus: state.status,
            nextPollAt: null,
            pollCount: { increment: 1 },
            settledAt: state.completedAt ? new Date(state.completedAt) : new Date(),
          },
        });
        await tx.$executeRaw`INSERT INTO "Receipt" ("jobId", "eventType", "source", "receivedAt") VALUES (${job.id}, ${EVENT_FOR_KIND[kind]}, 'poll', ${new Date()}) ON CONFLICT ("jobId") DO NOTHING`;
        await enqueue(tx, processJobItem({ jobId: job.id, eventType: EVENT_FOR_KIND[kind], source: "poll" }));
        await tx.jobEvent.create({
          data: {
            jobId: job.id,
            type: "poll",
            detail: JSON.stringify({ status: state.status, polls: job.pollCount + 1, enqueued: true }),
          },
        });
      });
      out.settled++;
    } catch (err) {
      if (err instanceof RateLimited) {
        // The client already paused everyone; the rest of this batch waits for the pause too.
        out.rateLimited = true;
        return later(job, err.retryAfterMs + Math.random() * c.TALLY_POLL_INITIAL_MS, false);
      }
      out.errors++;
      const gone = err instanceof PlatformNotFound;
      await later(
        job,
        gone
          ? c.TALLY_POLL_MAX_MS
          : spreadJitter(job.pollCount, c.TALLY_POLL_INITIAL_MS, c.TALLY_POLL_MAX_MS, Math.random),
      );
    }
  };
  const lanes = Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await pollOne(job);
  });
  await Promise.all(lanes);
  const stats = pollerStats();
  stats.batches++;
  stats.polls += out.settled + out.notYet + out.errors;
  stats.sweeps += out.sweeps;
  stats.sweepPages += out.sweepPages;
  stats.settled += out.settled;
  stats.expired += out.expired;
  stats.errors += out.errors;
  if (out.rateLimited) stats.rateLimited++;
  return out;
}
