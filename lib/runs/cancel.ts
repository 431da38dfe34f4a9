import "server-only";
import { audit } from "../audit";
import { db, transaction } from "../db";
import { Conflict, NotFound } from "../errors";
import { PlatformConflict, PlatformNotFound } from "../platform";
import { getPlatformClient, withPurpose } from "../platform";
import { moveUrls } from "./moves";
import { getRun } from "./read";
import type { RunView } from "./contracts";

// Cancelling a run: the run stops first (state cancelled, so its submitter sends nothing more), every
// URL not stored becomes failed with reason `cancelled`, then its batch jobs still running on the
// platform are cancelled there (their outcomes are recorded by the pipeline as usual). Results that
// arrive later for these jobs are stored as job results but do not change the run's URLs.

export async function cancelRun(id: string, actor: string, signal?: AbortSignal): Promise<RunView> {
  const run = await db().run.findUnique({ where: { id }, select: { state: true } });
  if (!run) throw new NotFound(`No run ${id}`);
  if (run.state !== "active") throw new Conflict(`Run ${id} is already ${run.state}`, { state: run.state });
  const changed = await transaction(async (tx) => {
    const { count } = await tx.run.updateMany({
      where: { id, state: "active" },
      data: { state: "cancelled", completedAt: new Date() },
    });
    if (count === 0) return false;
    const reason = { errorCode: "CANCELLED", errorMessage: `cancelled by ${actor}` };
    for (const from of ["pending", "retrying", "suspect", "submitted"] as const)
      await moveUrls(tx, id, from, "failed", {}, reason);
    return true;
  });
  if (!changed) throw new Conflict(`Run ${id} finished before the cancel took effect`);
  const open = await db().runChunk.findMany({ where: { runId: id, state: "submitted" }, select: { jobId: true } });
  const client = getPlatformClient();
  let cancelled = 0;
  let calls = 0;
  for (const c of open) {
    if (!c.jobId) continue;
    const job = await db().job.findUnique({ where: { id: c.jobId }, select: { outcome: true } });
    if (job && job.outcome !== "pending") continue;
    try {
      calls++;
      await withPurpose("submit", () => client.cancelBatch(c.jobId ?? "", { signal }));
      cancelled++;
    } catch (err) {
      // Already finished or unknown there: nothing left to stop. Anything else: the job finishes on
      // its own and its results are stored; the run's URLs are final already.
      if (!(err instanceof PlatformConflict) && !(err instanceof PlatformNotFound)) break;
    }
  }
  await db().run.update({ where: { id }, data: { platformCalls: { increment: calls } } });
  await audit({ actor, action: "run.cancel", target: id, detail: { platformJobsCancelled: cancelled } });
  return getRun(id);
}
