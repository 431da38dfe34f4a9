// Operation runs as a deployment accumulates them: a scheduled reconciliation every ten minutes over
// the last 14 days (a few found something), a replay after each burst of failures, some rotations,
// and the operator actions that started them in the audit log.
import { randomUUID } from "node:crypto";
import type { SeedCtx } from "./jobs";
import { at, DAY, rng } from "./gen";

export function seedRuns(ctx: SeedCtx): Record<string, number> {
  const { db, now } = ctx;
  const r = rng(ctx.salt[0] ^ 0x0e7a);
  const run =
    db.prepare(`INSERT INTO "OperationRun" ("id","kind","state","params","progress","summary","error","startedBy","startedAt","heartbeatAt","finishedAt")
    VALUES (?,?,?,?,?,?,?,?,?,?,?)`);
  const audit = db.prepare(
    `INSERT INTO "AuditLog" ("at","actor","action","target","detail","ok") VALUES (?,?,?,?,?,?)`,
  );
  const counts = { OperationRun: 0, AuditLog: 0 };
  db.transaction(() => {
    for (let t = now - 14 * DAY; t < now - 60_000; t += 10 * 60_000) {
      const listed = 2500 + Math.floor(r() * 800);
      const enqueued = r() < 0.05 ? 1 + Math.floor(r() * 12) : 0;
      const failed = r() < 0.003;
      const summary = {
        listed,
        alreadyDone: listed - enqueued,
        enqueued,
        stillRunning: Math.floor(r() * 40),
        alreadyQueued: 0,
        tooRecent: Math.floor(r() * 60),
        pages: Math.ceil(listed / 100),
      };
      const end = t + 4000 + r() * 20_000;
      run.run(
        randomUUID(),
        "reconcile",
        failed ? "failed" : "succeeded",
        JSON.stringify({ olderThanSeconds: null, since: null }),
        JSON.stringify(summary),
        failed ? null : JSON.stringify(summary),
        failed ? "listing batch jobs failed: upstream 503" : null,
        "scheduler",
        at(t),
        at(end),
        at(end),
      );
      counts.OperationRun++;
      // now and then an operator replays failures or rotates a secret
      if (r() < 0.02) {
        const kind = r() < 0.7 ? "replay" : "rotate";
        const rend = t + 60_000 + r() * 30_000;
        run.run(
          randomUUID(),
          kind,
          "succeeded",
          JSON.stringify({}),
          null,
          JSON.stringify(
            kind === "replay" ? { pages: 3, failures: 41, enqueued: 12 } : { subscriptionId: "large-extract" },
          ),
          null,
          "operator",
          at(t + 60_000),
          at(rend),
          at(rend),
        );
        audit.run(
          at(t + 60_000),
          "operator",
          kind === "replay" ? "replay.start" : "subscription.rotate",
          "large-extract",
          JSON.stringify({ seeded: true }),
          1,
        );
        counts.OperationRun++;
        counts.AuditLog++;
      }
    }
  })();
  return counts;
}
