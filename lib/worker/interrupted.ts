import "server-only";
import { log } from "../log";
import { abandonStaleRuns } from "../operations";
import { recoverRotations } from "../subscriptions";

/**
 * Runs whose process stopped: a rotation's lost secret is found again (lib/subscriptions/recover.ts),
 * and any other run is ended so no page shows it running and its lock key is free. Every few seconds
 * on the shared schedule, and in each `POST /api/cron/poll`.
 */
export async function recoverInterruptedRuns(): Promise<{ rotationsRecovered: number; runsEnded: number }> {
  const rotations = await recoverRotations();
  const ended = await abandonStaleRuns({});
  if (ended.length > 0) log.warn("runs whose process stopped ended", { runs: ended.map((r) => `${r.kind} ${r.id}`) });
  return { rotationsRecovered: rotations.length, runsEnded: ended.length };
}
