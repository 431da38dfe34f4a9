import "server-only";
import type { Tx } from "../db";
import { enqueueEvent } from "../outbound";

// run.completed, written in the transaction that completes the run (the outbox): its webhook-id is
// derived from the run id, so a run that completes again after "retry failed" is still one event.

export const RUN_COMPLETED = "run.completed";

export async function enqueueRunEvent(tx: Tx, runId: string): Promise<number> {
  return enqueueEvent(tx, RUN_COMPLETED, runId, "completed");
}
