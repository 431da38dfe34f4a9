import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { log } from "../log";
import { countSafetyNetRun } from "../metrics";
import { abandonedError } from "./describe";

// Operation runs are rows, so every process (server, worker, CLI) sees the same ones. `lockKey` is
// set while a run is running and its unique index makes starts single-flight across processes; a
// run whose heartbeat went stale (its process died) is marked failed and its key handed over.

export type RunKind = "reconcile" | "replay" | "rotate" | "register" | "poll";
export type RunState = "running" | "succeeded" | "failed";
export type Json = Record<string, unknown>;

export const HEARTBEAT_MS = 5_000;
/** A running run whose heartbeat is older than this belongs to a process that is gone. */
export const STALE_AFTER_MS = 60_000;

export type StartOptions = {
  kind: RunKind;
  lockKey: string;
  params?: Json;
  startedBy: string;
  staleAfterMs?: number;
};

export type Started = { runId: string; created: boolean };

const isUniqueViolation = (err: unknown) => err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";

/** Inserts a running run, or returns the one already running under the same lock key. */
export async function startRun(opts: StartOptions): Promise<Started> {
  const staleAfterMs = opts.staleAfterMs ?? STALE_AFTER_MS;
  // A few rounds cover the races: the holder finishing, or another process taking over a stale run.
  for (let round = 0; round < 5; round++) {
    const id = randomUUID();
    try {
      await db().operationRun.create({
        data: {
          id,
          kind: opts.kind,
          lockKey: opts.lockKey,
          params: opts.params ? JSON.stringify(opts.params) : null,
          startedBy: opts.startedBy,
        },
      });
      return { runId: id, created: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    const holder = await db().operationRun.findUnique({ where: { lockKey: opts.lockKey } });
    if (!holder) continue; // finished in between: try again
    const cutoff = new Date(Date.now() - staleAfterMs);
    if (holder.heartbeatAt >= cutoff) return { runId: holder.id, created: false };
    await abandon(holder, cutoff);
  }
  throw new Error(`could not start a ${opts.kind} run: lock ${opts.lockKey} kept changing hands`);
}

export type AbandonedRun = {
  id: string;
  kind: string;
  params: string | null;
  startedAt: Date;
  heartbeatAt: Date;
  startedBy: string;
};

/** Marks a running run whose heartbeat is older than `cutoff` failed and frees its key; false if another process did first. */
async function abandon(run: AbandonedRun, cutoff: Date): Promise<boolean> {
  const { count } = await db().operationRun.updateMany({
    where: { id: run.id, state: "running", heartbeatAt: { lt: cutoff } },
    data: {
      state: "failed",
      lockKey: null,
      finishedAt: new Date(),
      error: abandonedError(run.heartbeatAt),
    },
  });
  if (count === 0) return false;
  log.warn("stale operation run taken over", { runId: run.id, kind: run.kind });
  countSafetyNetRun(run.kind, "failed");
  return true;
}

/**
 * Ends the runs (of one kind, or all) whose process stopped without ending them, so no page shows
 * them running forever and their lock keys are free; returns the ones this call ended, each once
 * across processes, for a caller that must finish their work (lib/subscriptions/recover.ts).
 */
export async function abandonStaleRuns(opts: { kind?: RunKind; staleAfterMs?: number }): Promise<AbandonedRun[]> {
  const cutoff = new Date(Date.now() - (opts.staleAfterMs ?? STALE_AFTER_MS));
  const stale = await db().operationRun.findMany({
    // A running run holds its lock key (unique, so indexed): the scan never reads finished runs.
    where: {
      lockKey: { not: null },
      state: "running",
      heartbeatAt: { lt: cutoff },
      ...(opts.kind ? { kind: opts.kind } : {}),
    },
    select: { id: true, kind: true, params: true, startedAt: true, heartbeatAt: true, startedBy: true },
    orderBy: { startedAt: "asc" },
    take: 100,
  });
  const ended: AbandonedRun[] = [];
  for (const run of stale) if (await abandon(run, cutoff)) ended.push(run);
  return ended;
}

/** Records progress counts; doubles as a heartbeat. */
export async function updateProgress(runId: string, progress: Json): Promise<void> {
  await db().operationRun.updateMany({
    where: { id: runId, state: "running" },
    data: { progress: JSON.stringify(progress), heartbeatAt: new Date() },
  });
}

export async function heartbeat(runId: string): Promise<void> {
  await db().operationRun.updateMany({ where: { id: runId, state: "running" }, data: { heartbeatAt: new Date() } });
}

/** Ends a run and frees its lock key. False when the run was already ended (e.g. taken over). */
export async function finishRun(
  runId: string,
  end: { state: Exclude<RunState, "running">; summary?: Json; error?: string },
): Promise<boolean> {
  const { count } = await db().operationRun.updateMany({
    where: { id: runId, state: "running" },
    data: {
      state: end.state,
      lockKey: null,
      finishedAt: new Date(),
      heartbeatAt: new Date(),
      summary: end.summary ? JSON.stringify(end.summary) : undefined,
      // A finished run's progress is its final state, not the last page it happened to be on.
      progress: end.summary ? JSON.stringify(end.summary) : undefined,
      error: end.error?.slice(0, 2000) ?? null,
    },
  });
  if (count === 0) log.warn("operation run already ended elsewhere", { runId, state: end.state });
  else {
    const run = await db().operationRun.findUnique({ where: { id: runId }, select: { kind: true } });
    if (run) countSafetyNetRun(run.kind, end.state);
  }
  return count > 0;
}
