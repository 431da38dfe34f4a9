import "server-only";
import { audit } from "../audit";
import { db, transaction } from "../db";
import { Conflict, NotFound } from "../errors";
import { refreshedCap } from "./caps";
import { moveUrls, wakeSubmitter } from "./moves";
import { getRun } from "./read";
import type { RunView } from "./contracts";

// "Retry failed": the run's failed URLs go round again with a fresh retry budget; the run is active
// again (a cancelled run too: the operator asked for its URLs). run.completed stays one event per run.
// A collection's run gets the cap a run started now would (issue 50): what it used plus what the month
// has left, not the cap it started with, which other runs of its month may have spent since.

export async function retryFailed(id: string, actor: string): Promise<RunView & { retried: number }> {
  const run = await db().run.findUnique({ where: { id }, select: { failed: true } });
  if (!run) throw new NotFound(`No run ${id}`);
  if (run.failed === 0) throw new Conflict(`Run ${id} has no failed URLs`);
  const retried = await transaction(async (tx) => {
    // The run's row first (the lock order of lib/runs/caps.ts: run, then its collection), and only while it
    // has failed URLs: of two retries at once, the second finds none and changes nothing (409).
    const { count } = await tx.run.updateMany({
      where: { id, failed: { gt: 0 } },
      data: {
        state: "active",
        completedAt: null,
        capReason: null,
        capHit: null,
        capLimit: null,
        capUsed: null,
        capWanted: null,
      },
    });
    if (count === 0) throw new Conflict(`Run ${id} has no failed URLs`);
    const fresh = await tx.run.findUniqueOrThrow({ where: { id } });
    const cap = await refreshedCap(tx, fresh);
    if (cap) await tx.run.update({ where: { id }, data: cap });
    const n = await moveUrls(tx, id, "failed", "pending", {}, { attempts: 0, rungAttempts: 0 });
    await wakeSubmitter(tx, id);
    return n;
  });
  await audit({ actor, action: "run.retry_failed", target: id, detail: { retried } });
  return { ...(await getRun(id)), retried };
}
