import "server-only";
import { db } from "../db";
import type { SweepGuard } from "./store";

// The guard between the sweep of orphans and a put of the same body (issue 47). On S3 the sweep's
// removal is a HEAD (is the object still older than the grace?) and then a DELETE: a put that finds
// the body kept and makes it young again (the self-copy of Backend.touch) in the moment between would
// lose it, and its row would name a body that is gone. So the sweep marks a key here before its HEAD
// and clears the mark after its DELETE; a put that touched a kept body reads the mark after its touch.
// No mark: any removal of this key starts after the touch (its HEAD sees the object young) and leaves
// it. A mark: the removal may come after the touch, so the put waits for the mark to go and writes the
// body again if it is gone. A file store moves an object aside before its last look and needs no mark,
// but the guard costs it nothing wrong.

/** A mark older than this is a crashed sweep's: no removal of one object takes so long. */
export const MARK_STALE_MS = 60_000;
const WAIT_STEP_MS = 50;

/** Marks `key` as being removed now (before the sweep's last look at its object). */
export async function markSweeping(key: string): Promise<number> {
  const markedAt = Date.now();
  await db().bodySweepMark.upsert({
    where: { key },
    create: { key, markedAt: BigInt(markedAt) },
    update: { markedAt: BigInt(markedAt) },
  });
  return markedAt;
}

/** Clears the mark of `key` (after the removal, done or not). */
export async function unmarkSweeping(key: string): Promise<void> {
  await db().bodySweepMark.deleteMany({ where: { key } });
}

/** Clears the marks crashed sweeps left (a sweep's start). */
export async function clearStaleMarks(now = Date.now()): Promise<number> {
  const { count } = await db().bodySweepMark.deleteMany({ where: { markedAt: { lt: BigInt(now - MARK_STALE_MS) } } });
  return count;
}

async function liveMark(key: string): Promise<boolean> {
  const row = await db().bodySweepMark.findUnique({ where: { key }, select: { markedAt: true } });
  return row !== null && Date.now() - Number(row.markedAt) < MARK_STALE_MS;
}

/** The process store's guard: a put asks it after touching a kept body. */
export const sweepGuard: SweepGuard = {
  marked: liveMark,
  async cleared(key) {
    while (await liveMark(key)) await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  },
};
