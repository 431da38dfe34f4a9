// The chaos run's verdict: Tally's database checked against the simulator's own truth.
import type { BodiesLedger } from "./bodies";
import { z } from "zod";
import { printForwarded, type Forwarded } from "./forwarded";
import { printCallRate, type CallRate } from "./rate";
import { printSinks, type SinkTally } from "./sinks";
import type { ChaosStore } from "./store";

export const simStateSchema = z.object({
  jobs: z.object({ total: z.number(), byStatus: z.record(z.string(), z.number()) }),
  deliveries: z.object({ byStatus: z.record(z.string(), z.number()) }),
  perJob: z.record(
    z.string(),
    z.object({
      kind: z.string(),
      status: z.string(),
      resubmittedFrom: z.string().optional(),
      dropped: z.number(),
      duplicated: z.number(),
      tokensCharged: z.number(),
    }),
  ),
});
export type SimState = z.infer<typeof simStateSchema>;

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const EXPECTED: Record<string, string[]> = {
  completed: ["stored"],
  cancelled: ["cancelled"],
  failed: ["resubmitted", "dead_lettered"],
};

export type Ledger = {
  /** The body store mode's end check (scripts/chaos/bodies.ts), when it ran. */
  bodies?: BodiesLedger;
  platformJobs: number;
  submitted: number;
  resubmissions: number;
  stored: number;
  resubmitted: number;
  resubmittedThenStored: number;
  deadLettered: number;
  cancelled: number;
  stillRunningOnPlatform: number;
  lost: number;
  wrongOutcome: number;
  storedTwice: number;
  droppedWebhooks: number;
  duplicatedWebhooks: number;
  unauthorized: number;
  unauthorizedJobsRecovered: number;
  unauthorizedJobsUnrecovered: number;
  /** How Tally first heard of each settled job (Receipt.source: webhook, poll, replay, reconcile, submit). */
  noticedBy: Record<string, number>;
  /** Jobs with at least one webhook the receiver accepted, first or not (a poll may notice a job first under load). */
  webhookAcceptedJobs: number;
  lostIds: string[];
  /** For each lost job (at most 10): what Tally's database knows of it, to find where it stopped. */
  lostDetails: string[];
  doubledIds: string[];
  /** The outlet: outcome events at the forwarding sink (set by the chaos run). */
  forwarded?: Forwarded;
  /** The database and broker sinks: each outcome event once in effect (set by the chaos run). */
  sinks?: SinkTally[];
  /** The platform calls the simulator saw, against the budget (set by the chaos run). */
  calls?: CallRate;
};

export async function computeLedger(store: ChaosStore, sim: SimState): Promise<Ledger> {
  const count = async (sql: string) => Number((await store.all<{ n: number | string }>(sql))[0]?.n ?? 0);
  const outcome = new Map(
    (await store.all<{ id: string; outcome: string }>('SELECT "id", "outcome" FROM "Job"')).map((r) => [
      r.id,
      r.outcome,
    ]),
  );
  // An outcome recorded twice for one job, or one failed job resubmitted twice, is double work.
  const doubleOutcome = (
    await store.all<{ jobId: string }>(
      `SELECT "jobId" FROM "JobEvent" WHERE "type" = 'outcome' GROUP BY "jobId" HAVING COUNT(*) > 1`,
    )
  ).map((r) => r.jobId);
  const resubmittedFrom = new Map<string, number>();
  for (const j of Object.values(sim.perJob))
    if (j.resubmittedFrom) resubmittedFrom.set(j.resubmittedFrom, (resubmittedFrom.get(j.resubmittedFrom) ?? 0) + 1);
  const doubleResubmit = [...resubmittedFrom].filter(([, n]) => n > 1).map(([id]) => id);

  const unauthorized = await count(`SELECT COUNT(*) n FROM "InboundDelivery" WHERE "status" = 401`);
  const unauthorizedJobs = (
    await store.all<{ jobId: string }>(
      `SELECT DISTINCT "jobId" FROM "PlatformDelivery" WHERE "httpStatus" = 401 AND "jobId" IS NOT NULL`,
    )
  ).map((r) => r.jobId);
  const describe = async (id: string) => {
    const [job] = await store.all(
      'SELECT "kind", "outcome", "origin", "platformStatus", "attempts" FROM "Job" WHERE "id" = ?',
      id,
    );
    const [receipt] = await store.all('SELECT "source", "receivedAt" FROM "Receipt" WHERE "jobId" = ?', id);
    const items = await store.all(
      'SELECT "id", "kind", "state", "attempts", "lastError", "availableAt" FROM "QueueItem" WHERE "jobId" = ?',
      id,
    );
    const events = await store.all('SELECT "at", "type", "detail" FROM "JobEvent" WHERE "jobId" = ? ORDER BY "id"', id);
    return `${id}: job ${JSON.stringify(job ?? null)} receipt ${JSON.stringify(receipt ?? null)} items ${JSON.stringify(items)} events ${JSON.stringify(events)}`;
  };

  const noticedBy: Record<string, number> = {};
  for (const r of await store.all<{ source: string; n: number | string }>(
    `SELECT "source", COUNT(*) n FROM "Receipt" GROUP BY "source" ORDER BY "source"`,
  ))
    noticedBy[r.source] = Number(r.n);
  const [accepted] = await store.all<{ n: number | string }>(
    `SELECT COUNT(DISTINCT "jobId") n FROM "InboundDelivery" WHERE "status" >= 200 AND "status" < 300 AND "jobId" IS NOT NULL`,
  );

  const l: Ledger = {
    platformJobs: 0,
    submitted: 0,
    resubmissions: 0,
    stored: 0,
    resubmitted: 0,
    resubmittedThenStored: 0,
    deadLettered: 0,
    cancelled: 0,
    stillRunningOnPlatform: 0,
    lost: 0,
    wrongOutcome: 0,
    storedTwice: 0,
    droppedWebhooks: 0,
    duplicatedWebhooks: 0,
    unauthorized,
    unauthorizedJobsRecovered: 0,
    unauthorizedJobsUnrecovered: 0,
    noticedBy,
    webhookAcceptedJobs: Number(accepted?.n ?? 0),
    lostIds: [],
    lostDetails: [],
    doubledIds: [...new Set([...doubleOutcome, ...doubleResubmit])],
  };
  for (const [id, j] of Object.entries(sim.perJob)) {
    l.platformJobs++;
    if (j.resubmittedFrom) l.resubmissions++;
    else l.submitted++;
    l.droppedWebhooks += j.dropped;
    l.duplicatedWebhooks += j.duplicated;
    if (!TERMINAL.has(j.status)) {
      l.stillRunningOnPlatform++;
      continue;
    }
    const o = outcome.get(id);
    if (!o || o === "pending") {
      l.lost++;
      l.lostIds.push(id);
      if (l.lostDetails.length < 10) l.lostDetails.push(`${await describe(id)} platform ${JSON.stringify(j)}`);
      continue;
    }
    if (!EXPECTED[j.status]?.includes(o)) l.wrongOutcome++;
    if (o === "stored") l.stored++;
    if (o === "stored" && j.resubmittedFrom) l.resubmittedThenStored++;
    if (o === "resubmitted") l.resubmitted++;
    if (o === "dead_lettered") l.deadLettered++;
    if (o === "cancelled") l.cancelled++;
  }
  for (const id of unauthorizedJobs) {
    const o = outcome.get(id);
    if (o && o !== "pending") l.unauthorizedJobsRecovered++;
    else l.unauthorizedJobsUnrecovered++;
  }
  l.storedTwice = l.doubledIds.length;
  return l;
}

export function printLedger(l: Ledger, log: (s: string) => void = console.log) {
  const rows: [string, number | string][] = [
    ["jobs submitted", l.submitted],
    ["resubmissions created", l.resubmissions],
    ["platform jobs in all", l.platformJobs],
    ["stored exactly once", l.stored],
    ["  of which resubmissions", l.resubmittedThenStored],
    ["resubmitted (failed, retryable)", l.resubmitted],
    ["dead-lettered", l.deadLettered],
    ["cancelled", l.cancelled],
    ["still running on the platform", l.stillRunningOnPlatform],
    [
      "noticed by (first receipt)",
      Object.entries(l.noticedBy)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ") || "none",
    ],
    ["jobs with a webhook accepted", l.webhookAcceptedJobs],
    ["webhooks dropped by the platform", l.droppedWebhooks],
    ["webhooks duplicated by the platform", l.duplicatedWebhooks],
    ["401s answered (rotation)", l.unauthorized],
    [
      "jobs with a 401 delivery, recovered",
      `${l.unauthorizedJobsRecovered} of ${l.unauthorizedJobsRecovered + l.unauthorizedJobsUnrecovered}`,
    ],
    ["outcome disagreeing with the platform", l.wrongOutcome],
    ["LOST (must be 0)", l.lost],
    ["STORED TWICE (must be 0)", l.storedTwice],
  ];
  const w = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) log(`  ${k.padEnd(w)}  ${v}`);
  if (l.lostIds.length) log(`  lost: ${l.lostIds.slice(0, 10).join(", ")}${l.lostIds.length > 10 ? " …" : ""}`);
  for (const d of l.lostDetails) log(`    ${d}`);
  if (l.doubledIds.length) log(`  doubled: ${l.doubledIds.slice(0, 10).join(", ")}`);
  if (l.forwarded) printForwarded(l.forwarded, log);
  if (l.sinks) printSinks(l.sinks, log);
  if (l.calls) printCallRate(l.calls, log);
}
