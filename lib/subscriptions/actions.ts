import "server-only";
import { audited } from "../audit";
import { registerSubscriptions } from "./register";
import { replay401sSinceRotation, rotateSubscriptionSecret, setSecretFromElsewhere } from "./rotate";
import { listSubscriptions, type SubscriptionView } from "./list";

// What the subscription routes call. A new secret appears in exactly one place: the answer to the
// rotation that produced it (the dashboard shows it once). Audit details carry ids, never secrets.

export type Answer = { status: number; body: Record<string, unknown> };

export function registerAction(actor: string): Promise<{
  runId: string;
  registered: string[];
  repaired: string[];
  unchanged: string[];
  items: SubscriptionView[];
}> {
  return audited(
    { actor, action: "subscriptions.register" },
    async () => ({ ...(await registerSubscriptions(actor)), items: await listSubscriptions() }),
    (r) => ({ runId: r.runId, registered: r.registered, repaired: r.repaired }),
  );
}

export function rotateAction(subscriptionId: string, actor: string): Promise<Answer> {
  return audited(
    { actor, action: "subscriptions.rotate", target: subscriptionId },
    async (): Promise<Answer> => {
      const r = await rotateSubscriptionSecret(subscriptionId, actor);
      if (!r.stored) {
        // Loud failure: the platform already switched, so the operator must enter this secret by hand.
        return {
          status: 500,
          body: { error: "secret_not_stored", message: r.message, runId: r.runId, secret: r.secret },
        };
      }
      if (!r.created) return { status: 202, body: { runId: r.runId, alreadyRunning: true } };
      return { status: 202, body: { runId: r.runId, secret: r.secret } };
    },
    (a) => ({ status: a.status, runId: a.body.runId }),
    (a) => a.status === 202,
  );
}

export function setSecretAction(subscriptionId: string, secret: string, actor: string): Promise<Answer> {
  return audited(
    { actor, action: "subscriptions.set_secret", target: subscriptionId },
    async () => {
      const r = await setSecretFromElsewhere(subscriptionId, secret, actor);
      return { status: 202, body: { runId: r.runId } };
    },
    (a) => ({ runId: a.body.runId }),
  );
}

export function replay401sAction(subscriptionId: string, actor: string): Promise<Answer> {
  return audited(
    { actor, action: "subscriptions.replay_401s", target: subscriptionId },
    async () => {
      const run = await replay401sSinceRotation(subscriptionId, actor);
      return { status: 202, body: { runId: run.runId, alreadyRunning: !run.created } };
    },
    (a) => ({ runId: a.body.runId }),
  );
}
