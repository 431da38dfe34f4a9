import "server-only";
import { z } from "zod";
import { getConfig } from "../config";
import { db, sqlInt } from "../db";
import { isTerminal, spreadJitter, type JobKind, type PlatformClient } from "../platform";
import { withPurpose } from "../platform";
import { feedQueue, type Candidate } from "./feed";
import { listJobs, settledAt } from "./list-jobs";

// The list sweep: when more than a few jobs of a kind are being polled (polling mode, or silent in
// webhook mode), one walk through the platform's job list from the oldest of them (`start_date`, 100
// per page) replaces a status call per job. Every polled job in the window that the list shows settled
// goes to the queue (set-based, as reconciliation does); the others all get the same next poll time,
// so the next sweep again covers them together instead of a trickle of per-job calls. Jobs older than
// the window's horizon stay on per-job polls: a stuck job must not stretch every sweep over hours.
//
// No `status` filter: the three settled statuses would need three lists of at least one call each,
// while one unfiltered list reads settled and running jobs alike in ceil(window/100) pages, which is
// fewer calls for the windows polling makes (a few hundred jobs); a sweep also learns nothing from a
// missing job if it filtered.

/** More pending polled jobs of a kind than this and a sweep replaces their per-job calls. */
export const SWEEP_MIN_JOBS = 3;
/** Jobs older than this (by created_at) are stragglers, polled one by one. */
export const SWEEP_HORIZON_MS = 30 * 60_000;
/** Our created_at may lag or lead the platform's by this much; the window starts this much earlier. */
export const SWEEP_SKEW_MS = 2 * 60_000;
/** Sweeps of a kind run this far apart (within TALLY_POLL_INITIAL_MS..TALLY_POLL_MAX_MS), ±20%: a
 * settled job is noticed within about one interval, and a sweep costs the same whether it covers 4 jobs or 100. */
export const SWEEP_INTERVAL_MS = 4_000;
/** A whole sweep (every page) gives up after this long; its jobs wait for the next one. */
const SWEEP_DEADLINE_MS = 60_000;

export function sweepIntervalMs(): number {
  const c = getConfig();
  return Math.min(c.TALLY_POLL_MAX_MS, Math.max(c.TALLY_POLL_INITIAL_MS, SWEEP_INTERVAL_MS));
}

/** `handled`: the polled jobs this sweep settled or rescheduled; `missing`: polled jobs of the window the list did not show. */
export type SweepResult = {
  kind: JobKind;
  covered: number;
  pages: number;
  settled: number;
  notYet: number;
  missing: string[];
  handled: Set<string>;
};

const windowRow = z.object({
  n: sqlInt,
  oldest: z.union([z.coerce.date(), z.null()]),
});

const polledPending = (kind: JobKind) => ({ kind, outcome: "pending", nextPollAt: { not: null }, pollExpiredAt: null });

/** The sweep window of a kind: how many polled jobs it holds, and from when. */
export async function sweepWindow(kind: JobKind, now: Date) {
  const horizon = new Date(now.getTime() - SWEEP_HORIZON_MS);
  const rows = await db().$queryRaw`
    SELECT COUNT(*) AS "n", MIN(COALESCE("platformCreatedAt", "createdAt")) AS "oldest" FROM "Job"
    WHERE "kind" = ${kind} AND "outcome" = 'pending' AND "nextPollAt" IS NOT NULL AND "pollExpiredAt" IS NULL
      AND COALESCE("platformCreatedAt", "createdAt") >= ${horizon}`;
  const r = windowRow.parse(Array.isArray(rows) ? rows[0] : rows);
  return { count: r.n, oldest: r.oldest };
}

/**
 * One sweep of a kind from `oldest`. Returns the polled jobs of the window it never saw in the list
 * (the caller checks those it claimed one by one).
 */
export async function sweepKind(client: PlatformClient, kind: JobKind, oldest: Date): Promise<SweepResult> {
  const from = new Date(oldest.getTime() - SWEEP_SKEW_MS);
  const out: SweepResult = { kind, covered: 0, pages: 0, settled: 0, notYet: 0, missing: [], handled: new Set() };
  const seen = new Set<string>();
  const settled: { c: Candidate; status: string }[] = [];
  await withPurpose("poll sweep", async () => {
    // Bounded like a per-job poll: a sweep stuck behind a long 429 pause gives way to the next one.
    for await (const page of listJobs(
      client,
      kind,
      { start_date: from, page_size: 100 },
      { deadline: Date.now() + SWEEP_DEADLINE_MS },
    )) {
      out.pages++;
      const now = Date.now();
      for (const j of page.items) {
        seen.add(j.jobId);
        if (isTerminal(j.status)) {
          settled.push({
            status: j.status,
            c: {
              jobId: j.jobId,
              kind,
              platformStatus: j.status,
              platformCreatedAt: new Date(j.createdAt),
              settledAt: new Date(settledAt(j, now)),
            },
          });
        }
      }
    }
  });

  // Only jobs Tally is polling: the window also lists jobs it has settled, or never submitted.
  const polled = await db().job.findMany({
    where: {
      ...polledPending(kind),
      OR: [{ platformCreatedAt: { gte: oldest } }, { platformCreatedAt: null, createdAt: { gte: oldest } }],
    },
    select: { id: true },
  });
  out.covered = polled.length;
  const polledIds = new Set(polled.map((j) => j.id));
  const toSettle = settled.filter((s) => polledIds.has(s.c.jobId));
  const now = new Date();
  for (let i = 0; i < toSettle.length; i += 100) {
    const chunk = toSettle.slice(i, i + 100);
    await feedQueue(
      chunk.map((s) => s.c),
      "poll",
      null,
    );
    for (const status of new Set(chunk.map((s) => s.status))) {
      await db().job.updateMany({
        where: { id: { in: chunk.filter((s) => s.status === status).map((s) => s.c.jobId) } },
        data: { platformStatus: status, nextPollAt: null, pollCount: { increment: 1 }, updatedAt: now },
      });
    }
  }
  out.settled = toSettle.length;
  const settledIds = new Set(toSettle.map((s) => s.c.jobId));
  const waiting = [...polledIds].filter((id) => !settledIds.has(id));
  out.missing = waiting.filter((id) => !seen.has(id));
  const stillRunning = waiting.filter((id) => seen.has(id));
  out.notYet = stillRunning.length;
  out.handled = new Set([...settledIds, ...stillRunning]);
  // One time for all of them (one random draw), so they stay due together.
  const interval = sweepIntervalMs();
  const next = new Date(Date.now() + spreadJitter(0, interval, interval, Math.random));
  for (let i = 0; i < stillRunning.length; i += 500) {
    await db().job.updateMany({
      where: { id: { in: stillRunning.slice(i, i + 500) }, outcome: "pending" },
      data: { nextPollAt: next, pollCount: { increment: 1 } },
    });
  }
  return out;
}
