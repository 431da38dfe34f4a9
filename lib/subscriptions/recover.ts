import "server-only";
import { z } from "zod";
import { db } from "../db";
import { log } from "../log";
import { abandonStaleRuns, type AbandonedRun } from "../operations";
import { startReplay } from "../safety-nets";
import {
  CLOCK_MARGIN_MS,
  findSpikeStart,
  IN_DOUBT,
  RETRY_IN_DOUBT_MS,
  rotateSubscriptionSecret,
  ROTATE_STALE_AFTER_MS,
} from "./rotate";

// The platform shows a new secret once, in its answer to rotate-secret. A rotation that loses that
// answer (its process killed before storing it, or the answer lost on the way every time it asked)
// may leave the platform signing with a secret nobody has: every delivery then fails with 401 until
// someone rotates again. Every few seconds one process (lib/worker/schedules.ts):
// 1. ends the rotations that missed their heartbeats and finishes what each left: one that stored its
//    secret replays its 401s; one that did not leaves its subscription's secret in doubt;
// 2. rotates again each subscription whose secret is in doubt (a failed rotation marked IN_DOUBT and
//    no secret stored since it began), at once the first time and every RETRY_IN_DOUBT_MS after;
//    that rotation replays every 401 since the spike began.

export type Recovery = {
  runId: string;
  subscriptionId: string | null;
  action: "replayed" | "in_doubt" | "rotated_again" | "none";
  /** The run that does the recovery's work (a replay or a rotation). */
  recoveredBy: string | null;
  note: string;
};

/** IN_DOUBT as it reads inside a stored summary. */
const DOUBT_MARK = JSON.stringify(IN_DOUBT).slice(1, -1);
const paramsSchema = z.object({ subscriptionId: z.string(), source: z.enum(["rotated", "set_elsewhere"]) });
/** Doubt older than this is an operator's matter (the overview's 401 chart shows it), not a loop's. */
const DOUBT_HORIZON_MS = 24 * 3_600_000;

export async function recoverRotations(now = new Date()): Promise<Recovery[]> {
  const out: Recovery[] = [];
  for (const run of await abandonStaleRuns({ kind: "rotate", staleAfterMs: ROTATE_STALE_AFTER_MS })) {
    const r = await finishInterrupted(run).catch((err: unknown) => failed(run.id, err));
    await noteOn(run.id, r);
    out.push(r);
  }
  out.push(...(await rotateWhereInDoubt(now)));
  for (const r of out) {
    if (r.action === "none") log.warn("rotation left unrecovered", { ...r });
    else log.info("rotation recovered", { ...r });
  }
  return out;
}

async function finishInterrupted(run: AbandonedRun): Promise<Recovery> {
  const params = paramsOf(run.params);
  if (!params) return none(run.id, null, "no subscription in its params");
  const { subscriptionId, source } = params;
  const stored = await db().secretRotation.findFirst({ where: { runId: run.id }, select: { at: true } });
  if (stored) {
    // The secret is in place; the 401s of its gap were not replayed yet (or only in part). Its
    // replay, if it had begun, stopped with it: end that run too rather than wait a minute for it.
    await abandonStaleRuns({ kind: "replay", staleAfterMs: ROTATE_STALE_AFTER_MS });
    const spike = await findSpikeStart(subscriptionId);
    const since = spike && spike < stored.at ? spike : stored.at;
    const replay = await startReplay(
      { subscriptionId, since: new Date(since.getTime() - CLOCK_MARGIN_MS), only401: true, trigger: run.id },
      `recovery of run ${run.id}`,
    );
    return {
      runId: run.id,
      subscriptionId,
      action: "replayed",
      recoveredBy: replay.runId,
      note: "its secret was stored; its 401s are replayed",
    };
  }
  if (source === "set_elsewhere")
    // The operator's request failed with the process: they saw an error and enter the secret again.
    return none(run.id, subscriptionId, "the secret entered by hand was not stored; enter it again");
  return {
    runId: run.id,
    subscriptionId,
    action: "in_doubt",
    recoveredBy: null,
    note: "stopped before storing a secret the platform may have issued",
  };
}

async function rotateWhereInDoubt(now: Date): Promise<Recovery[]> {
  const doubtful = await db().operationRun.findMany({
    where: {
      kind: "rotate",
      state: "failed",
      startedAt: { gte: new Date(now.getTime() - DOUBT_HORIZON_MS) },
      summary: { contains: DOUBT_MARK },
    },
    select: { id: true, params: true, startedAt: true },
    // The latest doubt of each subscription decides: a secret stored after it settles the older ones too.
    orderBy: { startedAt: "desc" },
  });
  const out: Recovery[] = [];
  const seen = new Set<string>();
  for (const run of doubtful) {
    const subscriptionId = paramsOf(run.params)?.subscriptionId;
    if (!subscriptionId || seen.has(subscriptionId)) continue;
    seen.add(subscriptionId);
    const sub = await db().subscription.findUnique({ where: { id: subscriptionId }, select: { platformId: true } });
    if (!sub?.platformId) continue; // deleted or unregistered since: registering issues a new secret
    // Any secret stored since the doubt began (a rotation, or one entered by hand) settles it.
    const since = await db().secretRotation.count({ where: { subscriptionId, at: { gte: run.startedAt } } });
    if (since > 0) continue;
    const latest = await db().operationRun.findFirst({
      where: { kind: "rotate", params: { contains: `"subscriptionId":"${subscriptionId}"` } },
      orderBy: { startedAt: "desc" },
      select: { id: true, state: true, finishedAt: true, summary: true },
    });
    // Running: wait for it. Failed for a plain reason (the webhook gone: a 404): an operator's matter.
    if (!latest || latest.state === "running" || !latest.summary?.includes(DOUBT_MARK)) continue;
    // The first try goes at once; after a try whose answer was lost too, wait before the next.
    const firstTry = latest.id === run.id;
    if (!firstTry && latest.finishedAt && now.getTime() - latest.finishedAt.getTime() < RETRY_IN_DOUBT_MS) continue;
    const actor = `recovery of run ${run.id}`;
    try {
      const again = await rotateSubscriptionSecret(subscriptionId, actor, { recovers: run.id });
      const r: Recovery = {
        runId: run.id,
        subscriptionId,
        action: "rotated_again",
        recoveredBy: again.runId,
        // Stored or not, nobody is there to take the secret: a failure to store it is in its run's error.
        note: again.stored ? "rotated again; the 401s since the spike are replayed" : again.message,
      };
      await noteOn(run.id, r);
      out.push(r);
    } catch (err) {
      out.push(failed(run.id, err, subscriptionId));
    }
  }
  return out;
}

/** The run's row says what became of it, for the operations page; a doubt stays marked (step 2 reads it). */
async function noteOn(runId: string, r: Recovery) {
  const inDoubt = r.action === "in_doubt" || r.action === "rotated_again";
  await db().operationRun.update({
    where: { id: runId },
    data: {
      summary: JSON.stringify({
        ...(inDoubt ? IN_DOUBT : {}),
        recovery: r.action,
        recoveredBy: r.recoveredBy,
        note: r.note,
      }),
    },
  });
}

function paramsOf(json: string | null) {
  try {
    const parsed = paramsSchema.safeParse(JSON.parse(json ?? "null"));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const none = (runId: string, subscriptionId: string | null, note: string): Recovery => ({
  runId,
  subscriptionId,
  action: "none",
  recoveredBy: null,
  note,
});

const failed = (runId: string, err: unknown, subscriptionId: string | null = null): Recovery =>
  none(runId, subscriptionId, `recovery failed: ${err instanceof Error ? err.message : String(err)}`);
