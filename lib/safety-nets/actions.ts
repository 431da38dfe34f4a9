import "server-only";
import { startReconcile } from "./reconcile";
import { startReplay } from "./replay";
import { audited } from "../audit";
import type { ReconcileBody, ReplayBody } from "../operations";

// What the operations routes and the dashboard's buttons call: start a safety net (single-flight) and
// audit who asked. Routes answer 202 with the run id.

export type Accepted = { runId: string; alreadyRunning: boolean };

export function reconcileAction(body: ReconcileBody, actor: string): Promise<Accepted> {
  return audited(
    {
      actor,
      action: "operations.reconcile",
      detail: { olderThanSeconds: body.olderThanSeconds, since: body.since?.toISOString(), scope: body.scope },
    },
    async () => {
      const run = await startReconcile(body, actor);
      return { runId: run.runId, alreadyRunning: !run.created };
    },
    (r) => ({ runId: r.runId, alreadyRunning: r.alreadyRunning }),
  );
}

export function replayAction(body: ReplayBody, actor: string): Promise<Accepted> {
  return audited(
    {
      actor,
      action: "operations.replay",
      target: body.subscriptionId ?? "all",
      detail: { since: body.since?.toISOString() },
    },
    async () => {
      const run = await startReplay(
        { subscriptionId: body.subscriptionId, since: body.since, trigger: "operator" },
        actor,
      );
      return { runId: run.runId, alreadyRunning: !run.created };
    },
    (r) => ({ runId: r.runId, alreadyRunning: r.alreadyRunning }),
  );
}
