import "server-only";
import type { Tx } from "../db";
import { lockRun } from "./moves";

// A chunk whose first answer was lost and whose adoption found nothing is posted again: the platform
// may then run it twice. The other copy (no chunk owns it) turns up later through a webhook, the
// delivery log or reconciliation; its URLs are not mapped again (each counts once), and the run counts
// the duplicate submission in `duplicateSubmits` and says so on the copy's timeline, once per copy.
//
// The copy can settle before the chunk's second POST is answered (it was in flight when adoption
// looked). So both moments count, each under the run's lock: the copy settling (countDuplicate), and
// the chunk being linked to its job (countEarlierCopies, from submit.ts's recordAccepted). Whichever
// commits second sees the other's row.

const DUPLICATE_OF = '"duplicateOf"';

type ChunkRef = { id: number; runId: string; seq: number; firstUrl: string; createdAt: Date; jobId: string | null };

/** When the job that settled is a copy of a chunk posted more than once, counts it. */
export async function countDuplicate(tx: Tx, jobId: string): Promise<void> {
  const job = await tx.job.findUnique({
    where: { id: jobId },
    select: { kind: true, url: true, origin: true, resubmittedFromId: true },
  });
  if (!job || job.kind !== "batch" || !job.url || job.origin === "submitted" || job.resubmittedFromId) return;
  const latest = { firstUrl: job.url, postAttempts: { gt: 1 } };
  const candidate = await tx.runChunk.findFirst({ where: latest, orderBy: { id: "desc" }, select: { runId: true } });
  if (!candidate) return;
  // Waits for a recordAccepted of that run in flight, then reads the chunk as it committed.
  await lockRun(tx, candidate.runId);
  const chunk = await tx.runChunk.findFirst({ where: { ...latest, jobId: { not: null } }, orderBy: { id: "desc" } });
  if (!chunk || chunk.jobId === jobId) return;
  await markDuplicate(tx, chunk, jobId);
}

/**
 * Called once a chunk posted more than once is linked to its job (under the run's lock): counts the
 * copies that had already settled, unowned and uncounted, since the chunk was recorded.
 */
export async function countEarlierCopies(tx: Tx, chunkId: number): Promise<void> {
  const chunk = await tx.runChunk.findUnique({ where: { id: chunkId } });
  if (!chunk || chunk.postAttempts < 2 || !chunk.jobId) return;
  const copies = await tx.job.findMany({
    where: {
      kind: "batch",
      url: chunk.firstUrl,
      origin: { not: "submitted" },
      resubmittedFromId: null,
      outcome: { not: "pending" },
      id: { not: chunk.jobId },
      createdAt: { gte: chunk.createdAt },
    },
    select: { id: true },
  });
  if (copies.length === 0) return;
  const ids = copies.map((c) => c.id);
  const owned = await tx.runChunk.findMany({ where: { jobId: { in: ids } }, select: { jobId: true } });
  const counted = await tx.jobEvent.findMany({
    where: { jobId: { in: ids }, type: "note", detail: { contains: DUPLICATE_OF } },
    select: { jobId: true },
  });
  const skip = new Set([...owned.map((c) => c.jobId), ...counted.map((e) => e.jobId)]);
  for (const id of ids) if (!skip.has(id)) await markDuplicate(tx, chunk, id);
}

async function markDuplicate(tx: Tx, chunk: ChunkRef, copyId: string): Promise<void> {
  await tx.run.update({ where: { id: chunk.runId }, data: { duplicateSubmits: { increment: 1 } } });
  await tx.jobEvent.create({
    data: {
      jobId: copyId,
      type: "note",
      detail: JSON.stringify({ duplicateOf: { run: chunk.runId, chunk: chunk.seq, job: chunk.jobId } }),
    },
  });
}
