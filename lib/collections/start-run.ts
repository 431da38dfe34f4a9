import "server-only";
import { randomUUID } from "node:crypto";
import { Prisma, type Collection } from "@/generated/prisma/client";
import { audit } from "../audit";
import { db, transaction, type Tx } from "../db";
import { Conflict, NotFound } from "../errors";
import { log } from "../log";
import { insertRun, parseText } from "../runs";
import { currentTraceparent, inSpan, linkTo, tracingOn, type Link } from "../tracing";
import { nextTick } from "./schedule";
import { settingsOf } from "./save";
import { runCap } from "./spend";

// Starting a collection's runs. A manual run (POST /api/collections/{id}/run) starts now unless one is
// still going (409). A scheduled tick is claimed by moving the collection's nextRunAt with a conditional
// UPDATE (only one process's UPDATE finds the old value) and recorded as a CollectionTick, unique per
// (collection, scheduled time), in the same transaction as the run it starts: a tick runs once, or not at all.
// The next tick counts from now, so ticks missed while Tally was down run once, not once each.

/** The run a collection starts with its current list and settings, in the caller's transaction. */
async function insertCollectionRun(tx: Tx, c: Collection, trigger: "schedule" | "manual", actor: string) {
  const s = settingsOf(c);
  const now = new Date();
  const name = `${c.name} ${now.toISOString().slice(0, 16).replace("T", " ")}`;
  // Issue 39: the run's cap is the collection's per-run cap or what is left of its month, whichever is lower.
  // A manual run whose estimate passes it is refused (400); a scheduled one starts and stops at the cap.
  const cap = await runCap(tx, c, now);
  const insert = () =>
    insertRun(
      tx,
      parseText(c.urls, "lines"),
      {
        name,
        formats: s.formats,
        renderJs: s.renderJs,
        ...(s.checks ? { checks: s.checks } : {}),
        ...(s.escalation ? { escalation: s.escalation } : {}),
        maxTokens: cap.maxTokens,
        refuseOverEstimate: trigger === "manual",
        // Said only where the month, not the collection's own per-run cap, set the run's cap.
        capNote:
          cap.monthLeft !== null && (c.maxTokens === null || cap.monthLeft < c.maxTokens)
            ? `the collection's monthly cap of ${c.monthlyMaxTokens} tokens leaves ${cap.monthLeft}`
            : undefined,
      },
      actor,
      { collectionId: c.id, trigger, ignorePatterns: s.ignorePatterns },
    );
  if (!tracingOn()) return insert();
  // With tracing on, each run of a collection is a trace of its own, linked back to the collection's
  // previous run and to what started it (an operator's request), so a collection's trace never grows.
  const previous = await tx.run.findFirst({
    where: { collectionId: c.id },
    orderBy: { createdAt: "desc" },
    select: { traceContext: true },
  });
  const links = [linkTo(previous?.traceContext ?? null), linkTo(currentTraceparent())].filter(
    (l): l is Link => l !== undefined,
  );
  return inSpan(
    "collection run",
    { root: true, links, attributes: { "tally.collection.id": c.id, "tally.run.trigger": trigger } },
    insert,
  );
}

/**
 * On PostgreSQL the collection's row is the lock every start queues on (SQLite has one writer anyway): taken
 * BEFORE the check for an active run, so two starts (a manual one, a queued tick) cannot both see none.
 */
async function lockCollection(tx: Tx, id: string): Promise<void> {
  await tx.$executeRaw`UPDATE "Collection" SET "updatedAt" = "updatedAt" WHERE "id" = ${id}`;
}

async function activeRun(tx: Tx, collectionId: string): Promise<string | null> {
  const run = await tx.run.findFirst({ where: { collectionId, state: "active" }, select: { id: true } });
  return run?.id ?? null;
}

export async function runCollectionNow(id: string, actor: string): Promise<{ runId: string }> {
  const runId = await transaction(async (tx) => {
    await lockCollection(tx, id);
    const c = await tx.collection.findUnique({ where: { id } });
    if (!c) throw new NotFound(`No collection ${id}`);
    const running = await activeRun(tx, id);
    if (running)
      throw new Conflict(`Run ${running} of this collection is still going; start another when it ends`, {
        runId: running,
      });
    return (await insertCollectionRun(tx, c, "manual", actor)).id;
  });
  await audit({ actor, action: "collection.run", target: id, detail: { runId, trigger: "manual" } });
  return { runId };
}

export type TickResult = {
  collectionId: string;
  scheduledFor: string;
  outcome: "started" | "skipped" | "queued";
  runId: string | null;
  reason: string | null;
};

const SCHEDULER = "scheduler";
const DUE_PER_PASS = 100;

function isUniqueViolation(err: unknown): boolean {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

/** One due tick of one collection; null when another process claimed it first. */
async function fireTick(c: Collection, now: Date): Promise<TickResult | null> {
  const due = c.nextRunAt;
  if (!due || !c.schedule) return null;
  const next = nextTick(c.schedule, c.timezone, now);
  try {
    return await transaction(async (tx) => {
      const { count } = await tx.collection.updateMany({
        where: { id: c.id, nextRunAt: due, paused: false },
        data: { nextRunAt: next },
      });
      if (count === 0) return null;
      const fresh = await tx.collection.findUnique({ where: { id: c.id } });
      if (!fresh) return null;
      const running = await activeRun(tx, c.id);
      let result: TickResult;
      if (running && fresh.overlap === "queue") {
        await tx.collection.update({ where: { id: c.id }, data: { queuedFor: fresh.queuedFor ?? due } });
        const reason = `run ${running} was still going: this tick waits for it (overlap: queue)`;
        result = { collectionId: c.id, scheduledFor: due.toISOString(), outcome: "queued", runId: null, reason };
      } else if (running) {
        const reason = `run ${running} was still going (overlap: skip)`;
        result = { collectionId: c.id, scheduledFor: due.toISOString(), outcome: "skipped", runId: null, reason };
      } else {
        const run = await insertCollectionRun(tx, fresh, "schedule", SCHEDULER);
        result = {
          collectionId: c.id,
          scheduledFor: due.toISOString(),
          outcome: "started",
          runId: run.id,
          reason: null,
        };
      }
      await tx.collectionTick.create({
        data: {
          id: randomUUID(),
          collectionId: c.id,
          scheduledFor: due,
          outcome: result.outcome,
          runId: result.runId,
          reason: result.reason,
          createdAt: now,
        },
      });
      return result;
    });
  } catch (err) {
    // The tick is already recorded: another process fired it (the UPDATE above makes this rare).
    if (isUniqueViolation(err)) return null;
    return skipFailedTick(c.id, due, next, now, err);
  }
}

/** A tick whose run could not be made (a list over a lowered TALLY_RUN_MAX_URLS): recorded as skipped, with why. */
async function skipFailedTick(id: string, due: Date, next: Date | null, now: Date, err: unknown) {
  const reason = `the run could not be started: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500);
  log.warn("collection tick failed", { collectionId: id, error: reason });
  try {
    return await transaction(async (tx) => {
      const { count } = await tx.collection.updateMany({ where: { id, nextRunAt: due }, data: { nextRunAt: next } });
      if (count === 0) return null;
      await tx.collectionTick.create({
        data: { id: randomUUID(), collectionId: id, scheduledFor: due, outcome: "skipped", reason, createdAt: now },
      });
      const r: TickResult = {
        collectionId: id,
        scheduledFor: due.toISOString(),
        outcome: "skipped",
        runId: null,
        reason,
      };
      return r;
    });
  } catch (again) {
    if (isUniqueViolation(again)) return null;
    throw again;
  }
}

/** A queued tick whose previous run has ended starts now; null when nothing is waiting or it still runs. */
async function fireQueued(c: Collection): Promise<TickResult | null> {
  const waiting = c.queuedFor;
  if (!waiting) return null;
  return transaction(async (tx) => {
    await lockCollection(tx, c.id);
    if (await activeRun(tx, c.id)) return null;
    const { count } = await tx.collection.updateMany({
      where: { id: c.id, queuedFor: waiting },
      data: { queuedFor: null },
    });
    if (count === 0) return null;
    const fresh = await tx.collection.findUnique({ where: { id: c.id } });
    if (!fresh) return null;
    const run = await insertCollectionRun(tx, fresh, "schedule", SCHEDULER);
    await tx.collectionTick.updateMany({
      where: { collectionId: c.id, scheduledFor: waiting, outcome: "queued" },
      data: { outcome: "started", runId: run.id },
    });
    return { collectionId: c.id, scheduledFor: waiting.toISOString(), outcome: "started", runId: run.id, reason: null };
  });
}

/**
 * One pass of the collections' schedules: queued ticks whose previous run ended, then every due tick.
 * Safe to call from any number of processes at once (each tick is claimed by one conditional UPDATE).
 */
export async function runDueCollections(now = new Date()): Promise<TickResult[]> {
  const out: TickResult[] = [];
  const queued = await db().collection.findMany({
    where: { queuedFor: { not: null }, paused: false },
    take: DUE_PER_PASS,
  });
  for (const c of queued) {
    const r = await fireQueued(c);
    if (r) out.push(r);
  }
  const due = await db().collection.findMany({
    where: { paused: false, nextRunAt: { lte: now } },
    orderBy: { nextRunAt: "asc" },
    take: DUE_PER_PASS,
  });
  for (const c of due) {
    try {
      const r = await fireTick(c, now);
      if (r) out.push(r);
    } catch (err) {
      // One collection's failure (a list over a lowered TALLY_RUN_MAX_URLS) must not stop the others.
      log.warn("collection tick failed", { collectionId: c.id, error: String(err) });
    }
  }
  for (const r of out)
    if (r.outcome === "started")
      await audit({ actor: SCHEDULER, action: "collection.run", target: r.collectionId, detail: { ...r } });
  return out;
}
