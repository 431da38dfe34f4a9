import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { dialect, type Tx } from "../db";
import { enqueue } from "../queue";
import { enqueueRunEvent } from "./event";
import type { UrlState } from "./contracts";
import { classifyRunItem } from "./classify-item";
import { runSubmitItem } from "./submit-item";

// Every change of a run URL's state goes through moveUrls: a conditional UPDATE of the URLs (only
// those still in `from`), then the run's counters by exactly the number of rows that changed, in the
// caller's transaction. So the counters always add up to `total`, at every read, on both stores.

type Data = Prisma.RunUrlUpdateManyMutationInput;

/**
 * The run's row is its lock: every transaction that changes a run's URLs takes it first, so two of them
 * (the submitter moving a chunk, a cancel moving the rest, a settle) queue on one row instead of
 * taking URL rows and the run row in opposite orders and deadlocking on PostgreSQL. SQLite runs one
 * writer at a time, so there is nothing to take.
 */
export async function lockRun(tx: Tx, runId: string): Promise<void> {
  if (dialect() === "postgres") await tx.$executeRaw`SELECT 1 FROM "Run" WHERE "id" = ${runId} FOR UPDATE`;
}

export async function moveUrls(
  tx: Tx,
  runId: string,
  from: UrlState,
  to: UrlState,
  where: Prisma.RunUrlWhereInput,
  data: Data = {},
): Promise<number> {
  await lockRun(tx, runId);
  const { count } = await tx.runUrl.updateMany({
    where: { ...where, runId, state: from },
    data: { ...data, state: to },
  });
  if (count > 0 && from !== to)
    await tx.run.update({ where: { id: runId }, data: { [from]: { decrement: count }, [to]: { increment: count } } });
  return count;
}

/** Wakes the run's submit item (or queues one) so URLs that became pending or retrying go out soon. */
export async function wakeSubmitter(tx: Tx, runId: string): Promise<void> {
  const item = runSubmitItem(runId);
  if (await enqueue(tx, item)) return;
  await tx.queueItem.updateMany({
    where: { dedupeKey: item.dedupeKey, state: "ready" },
    data: { availableAt: new Date() },
  });
}

/**
 * Completes the run when every URL is stored or failed (none pending, submitted, retrying or suspect) (and it is not cancelled); the outbound event
 * `run.completed` commits with it, and a collection run's classification is queued. True when this call completed it.
 */
export async function completeIfDone(tx: Tx, runId: string): Promise<boolean> {
  const { count } = await tx.run.updateMany({
    where: { id: runId, state: "active", pending: 0, submitted: 0, retrying: 0, suspect: 0 },
    data: { state: "completed", completedAt: new Date() },
  });
  if (count === 0) return false;
  await enqueueRunEvent(tx, runId);
  // A collection run (it has change rules) is compared with the collection's previous run next.
  const { count: tracked } = await tx.run.updateMany({
    where: { id: runId, changeRules: { not: null } },
    data: { changesState: "pending" },
  });
  if (tracked > 0) await enqueue(tx, classifyRunItem(runId));
  return true;
}
