import "server-only";
import { db } from "../db";
import { queueHealth } from "../metrics";
import { type AnswerClass, readOutages } from "../platform";
import { bodyStoreUnavailable } from "./body-store";
import type { Rule } from "./rule";

// The eleven rules. Each reads the database (shared by every process) at `now` and says whether its
// condition holds; thresholds come from configuration. A rule never sends anything: evaluate.ts
// turns changes of state into events.

export type { Finding, Rule } from "./rule";

const minutesAgo = (now: Date, m: number) => new Date(now.getTime() - m * 60_000);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A subscription as people know it: its event type and description, with its id; or the unkeyed route. */
function subscriptionName(id: string | null, sub: { eventType: string; description: string | null } | null): string {
  if (!id) return "the unkeyed route /webhooks/geonode";
  if (!sub) return `subscription ${id} (deleted)`;
  return `the ${sub.eventType} subscription${sub.description ? ` “${sub.description}”` : ""} (${id})`;
}

/** "3 min before", "under a minute before": how long before `later` the `earlier` moment was. */
function minutesBefore(later: Date, earlier: Date): string {
  const m = Math.round((later.getTime() - earlier.getTime()) / 60_000);
  return m < 1 ? "under a minute before" : `${plural(m, "minute")} before`;
}

const deadLetters: Rule = {
  name: "dead_letters",
  description: "Open dead letters (jobs or queue items that gave up and wait for a person)",
  page: "/dead-letters",
  thresholds: (c) => [{ setting: "TALLY_ALERT_DEAD_LETTERS", value: `${c.TALLY_ALERT_DEAD_LETTERS} open or more` }],
  async check(c) {
    const where = { state: "open" };
    const [open, newest] = await Promise.all([
      db().deadLetter.count({ where }),
      db().deadLetter.findMany({
        where,
        orderBy: { id: "desc" },
        take: 5,
        select: { id: true, jobId: true, kind: true, errorCode: true, createdAt: true },
      }),
    ]);
    const top = newest[0];
    return {
      firing: open >= c.TALLY_ALERT_DEAD_LETTERS,
      summary: `${plural(open, "open dead letter")}${top ? ` (newest: ${top.jobId ?? `queue item of kind ${top.kind}`}, ${top.errorCode ?? "no code"})` : ""}`,
      details: { open, newest: newest.map((d) => ({ ...d, createdAt: d.createdAt.toISOString() })) },
    };
  },
};

const unauthorizedSpike: Rule = {
  name: "unauthorized_spike",
  description: "Deliveries answered 401 (bad or missing signature) for one subscription or the unkeyed route",
  page: "/deliveries",
  thresholds: (c) => [
    { setting: "TALLY_ALERT_UNAUTHORIZED_COUNT", value: `${c.TALLY_ALERT_UNAUTHORIZED_COUNT} or more` },
    {
      setting: "TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES",
      value: `within ${c.TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES} min`,
    },
  ],
  async check(c, now) {
    const from = minutesAgo(now, c.TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES);
    const groups = await db().inboundDelivery.groupBy({
      by: ["subscriptionId"],
      where: { status: 401, receivedAt: { gte: from, lte: now } },
      _count: { _all: true },
      _min: { receivedAt: true },
    });
    const spikes = groups
      .filter((g) => g._count._all >= c.TALLY_ALERT_UNAUTHORIZED_COUNT)
      .sort((a, b) => b._count._all - a._count._all);
    // A rotation in the hour before the first 401 is the usual cause: a sender still signing with the old secret.
    const withCause = await Promise.all(
      spikes.map(async (g) => {
        const first = g._min.receivedAt ?? from;
        const rotation = await db().secretRotation.findFirst({
          where: {
            ...(g.subscriptionId ? { subscriptionId: g.subscriptionId } : {}),
            at: { gte: minutesAgo(first, 60), lte: now },
          },
          orderBy: { at: "desc" },
          select: { at: true, subscriptionId: true },
        });
        const sub = g.subscriptionId
          ? await db().subscription.findUnique({
              where: { id: g.subscriptionId },
              select: { eventType: true, description: true },
            })
          : null;
        return {
          subscriptionId: g.subscriptionId,
          subscription: subscriptionName(g.subscriptionId, sub),
          route: g.subscriptionId ? `/webhooks/geonode/${g.subscriptionId}` : "/webhooks/geonode (unkeyed)",
          count: g._count._all,
          firstAt: first.toISOString(),
          rotationPreceded: rotation !== null,
          rotatedAt: rotation?.at.toISOString() ?? null,
        };
      }),
    );
    const top = withCause[0];
    return {
      firing: withCause.length > 0,
      summary: top
        ? `${plural(top.count, "delivery", "deliveries")} answered 401 in ${c.TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES} min for ${top.subscription}${top.rotatedAt ? ` (its secret was rotated ${minutesBefore(new Date(top.firstAt), new Date(top.rotatedAt))} the first one)` : " (no rotation preceded it: a sender with a wrong secret?)"}`
        : "no 401 spike",
      details: { windowMinutes: c.TALLY_ALERT_UNAUTHORIZED_WINDOW_MINUTES, spikes: withCause },
    };
  },
};

type DriftEntry = { subscriptionId: string | null; eventType: string; problem: string; detail?: string };

const subscriptionDrift: Rule = {
  name: "subscription_drift",
  description: "Subscriptions that differ from the platform's copy (found by the latest reconciliation)",
  page: "/subscriptions",
  thresholds: (c) => [
    { setting: "TALLY_ALERT_DRIFT_COUNT", value: `${c.TALLY_ALERT_DRIFT_COUNT} difference(s) or more` },
  ],
  async check(c) {
    const run = await db().operationRun.findFirst({
      where: { kind: "reconcile", state: "succeeded" },
      orderBy: { finishedAt: "desc" },
      select: { id: true, summary: true, finishedAt: true },
    });
    let drift: DriftEntry[] = [];
    try {
      const parsed: unknown = run?.summary ? JSON.parse(run.summary) : null;
      const found = (parsed as { subscriptions?: { drift?: unknown } } | null)?.subscriptions?.drift;
      if (Array.isArray(found)) drift = found as DriftEntry[];
    } catch {
      drift = [];
    }
    const top = drift[0];
    return {
      firing: drift.length >= c.TALLY_ALERT_DRIFT_COUNT,
      summary: top
        ? `${plural(drift.length, "subscription difference")} (${top.eventType}: ${top.problem})`
        : "subscriptions match the platform",
      details: { runId: run?.id ?? null, checkedAt: run?.finishedAt?.toISOString() ?? null, drift: drift.slice(0, 20) },
    };
  },
};

const stalePending: Rule = {
  name: "stale_pending",
  description: "Jobs still without an outcome long after Tally learned of them",
  page: "/jobs?outcome=pending",
  thresholds: (c) => [
    { setting: "TALLY_PENDING_ALERT_MINUTES", value: `pending over ${c.TALLY_PENDING_ALERT_MINUTES} min` },
  ],
  async check(c, now) {
    const where = { outcome: "pending", createdAt: { lt: minutesAgo(now, c.TALLY_PENDING_ALERT_MINUTES) } };
    const [count, oldest] = await Promise.all([
      db().job.count({ where }),
      db().job.findMany({ where, orderBy: { createdAt: "asc" }, take: 10, select: { id: true, createdAt: true } }),
    ]);
    return {
      firing: count > 0,
      summary:
        count > 0
          ? `${plural(count, "job")} pending for over ${c.TALLY_PENDING_ALERT_MINUTES} min (oldest ${oldest[0].id})`
          : "no stale pending jobs",
      details: {
        count,
        olderThanMinutes: c.TALLY_PENDING_ALERT_MINUTES,
        oldest: oldest.map((j) => ({ id: j.id, createdAt: j.createdAt.toISOString() })),
      },
    };
  },
};

const queueStalled: Rule = {
  name: "queue_stalled",
  description: "The oldest queue item that is due has waited too long: the workers are not keeping up (or not running)",
  page: "/operations",
  thresholds: (c) => [
    {
      setting: "TALLY_ALERT_QUEUE_STALLED_MINUTES",
      value: `oldest due item over ${c.TALLY_ALERT_QUEUE_STALLED_MINUTES} min`,
    },
  ],
  async check(c, now) {
    const where = { state: "ready", availableAt: { lte: now } };
    const [oldest, due] = await Promise.all([
      db().queueItem.findFirst({
        where,
        orderBy: { availableAt: "asc" },
        select: { id: true, kind: true, availableAt: true },
      }),
      db().queueItem.count({ where }),
    ]);
    const ageMinutes = oldest ? (now.getTime() - oldest.availableAt.getTime()) / 60_000 : 0;
    return {
      firing: oldest !== null && ageMinutes >= c.TALLY_ALERT_QUEUE_STALLED_MINUTES,
      summary: oldest
        ? `oldest due queue item waited ${ageMinutes.toFixed(1)} min (${plural(due, "item")} due)`
        : "nothing due in the queue",
      details: {
        due,
        oldestId: oldest?.id ?? null,
        oldestKind: oldest?.kind ?? null,
        ageMinutes: Math.round(ageMinutes * 10) / 10,
      },
    };
  },
};

const queueBloat: Rule = {
  name: "queue_bloat",
  description:
    "PostgreSQL: a long-open transaction holds back vacuum, or the queue table has piled up dead rows (claims slow down); never fires on SQLite",
  page: "/operations",
  thresholds: (c) => [
    {
      setting: "TALLY_ALERT_OLD_TRANSACTION_MINUTES",
      value: `a transaction open ${c.TALLY_ALERT_OLD_TRANSACTION_MINUTES} min or more`,
    },
    {
      setting: "TALLY_ALERT_QUEUE_DEAD_ROWS",
      value: `${c.TALLY_ALERT_QUEUE_DEAD_ROWS.toLocaleString("en-US")} dead rows or more`,
    },
  ],
  async check(c, now) {
    const h = await queueHealth(now);
    if (!h) return { firing: false, summary: "not applicable on SQLite", details: {} };
    const minutes = h.oldestTransactionSeconds / 60;
    const oldTransaction = h.oldestTransaction !== null && minutes >= c.TALLY_ALERT_OLD_TRANSACTION_MINUTES;
    const bloated = h.queueDeadRows >= c.TALLY_ALERT_QUEUE_DEAD_ROWS;
    const parts = [
      h.oldestTransaction
        ? `oldest open transaction ${minutes.toFixed(1)} min (pid ${h.oldestTransaction.pid}, ${h.oldestTransaction.state ?? "unknown state"})`
        : "no open transaction",
      `${plural(h.queueDeadRows, "dead row")} in the queue table`,
    ];
    return {
      firing: oldTransaction || bloated,
      summary: parts.join("; "),
      details: {
        oldestTransactionMinutes: Math.round(minutes * 10) / 10,
        oldestTransactionPid: h.oldestTransaction?.pid ?? null,
        oldestTransactionState: h.oldestTransaction?.state ?? null,
        oldestTransactionApplication: h.oldestTransaction?.application ?? null,
        queueDeadRows: h.queueDeadRows,
        queueLiveRows: h.queueLiveRows,
        lastVacuum: h.lastAutovacuum,
      },
    };
  },
};

/** Fewer calls than this in the window is no rate to speak of (one failed call of one is not 100%). */
const MIN_CALLS = 5;
/** The answers that count as the platform failing; a 4xx or 429 is an answer about the request. */
const PLATFORM_ERROR_ANSWERS: readonly AnswerClass[] = ["5xx", "timeout", "network"];

const platformErrors: Rule = {
  name: "platform_errors",
  description: `Share of platform calls answered 5xx or timed out / failed to connect (at least ${MIN_CALLS} calls in the window), or the platform down now (calls failing in a row, the client's circuit breaker open)`,
  page: "/operations",
  thresholds: (c) => [
    { setting: "TALLY_ALERT_PLATFORM_ERROR_PERCENT", value: `${c.TALLY_ALERT_PLATFORM_ERROR_PERCENT}% or more` },
    { setting: "TALLY_ALERT_PLATFORM_ERROR_MINUTES", value: `over ${c.TALLY_ALERT_PLATFORM_ERROR_MINUTES} min` },
  ],
  async check(c, now) {
    // Every process's calls, as the API budget view counts them (ApiCallMinute, flushed every few
    // seconds): the in-memory counters would describe this process alone.
    const rows = await db().apiCallMinute.groupBy({
      by: ["answer"],
      where: { minute: { gte: minutesAgo(now, c.TALLY_ALERT_PLATFORM_ERROR_MINUTES), lte: now } },
      _sum: { count: true },
    });
    const byAnswer = Object.fromEntries(rows.map((r) => [r.answer, r._sum.count ?? 0]));
    const total = Object.values(byAnswer).reduce((a, b) => a + b, 0);
    const errors = PLATFORM_ERROR_ANSWERS.reduce((sum, a) => sum + (byAnswer[a] ?? 0), 0);
    const percent = total > 0 ? (100 * errors) / total : 0;
    // A share alone misses an outage: once down, the client sends a probe now and then (1 s doubling to
    // 60 s), so the failures stay few beside the successes earlier in the window. The outage itself,
    // as any process reported it with a failure within the window, fires too.
    const [outage] = await readOutages(minutesAgo(now, c.TALLY_ALERT_PLATFORM_ERROR_MINUTES).getTime());
    const share = `${percent.toFixed(1)}% of ${plural(total, "platform call")} failed (5xx, timeout or no connection) in ${c.TALLY_ALERT_PLATFORM_ERROR_MINUTES} min`;
    const down = outage
      ? `the platform is down: ${plural(outage.failedInARow, "call")} in a row failed, the first ${Math.max(0, Math.round((now.getTime() - outage.downSince) / 1000))} s ago; `
      : "";
    return {
      firing: outage !== undefined || (total >= MIN_CALLS && percent >= c.TALLY_ALERT_PLATFORM_ERROR_PERCENT),
      summary: down + share,
      details: {
        total,
        errors,
        percent: Math.round(percent * 10) / 10,
        byAnswer,
        windowMinutes: c.TALLY_ALERT_PLATFORM_ERROR_MINUTES,
        downSince: outage ? new Date(outage.downSince).toISOString() : null,
        failedInARow: outage?.failedInARow ?? 0,
      },
    };
  },
};

const safetyNetFailed: Rule = {
  name: "safety_net_failed",
  description: "The latest run of a safety net (reconcile, replay, rotate, register, poll) failed",
  page: "/operations",
  thresholds: (c) => [
    { setting: "TALLY_ALERT_SAFETY_NET_HOURS", value: `failed runs in the last ${c.TALLY_ALERT_SAFETY_NET_HOURS} h` },
  ],
  async check(c, now) {
    const runs = await db().operationRun.findMany({
      where: {
        state: { in: ["succeeded", "failed"] },
        finishedAt: { gte: new Date(now.getTime() - c.TALLY_ALERT_SAFETY_NET_HOURS * 3_600_000) },
      },
      orderBy: { finishedAt: "desc" },
      take: 200,
      select: { id: true, kind: true, state: true, error: true, finishedAt: true },
    });
    // The latest finished run of each kind: a later success clears an earlier failure.
    const latest = new Map<string, (typeof runs)[number]>();
    for (const r of runs) if (!latest.has(r.kind)) latest.set(r.kind, r);
    const failed = [...latest.values()].filter((r) => r.state === "failed");
    const top = failed[0];
    return {
      firing: failed.length > 0,
      summary: top
        ? `${top.kind} run ${top.id} failed: ${(top.error ?? "no reason recorded").slice(0, 200)}`
        : "latest safety-net runs succeeded",
      details: {
        failed: failed.map((r) => ({
          runId: r.id,
          kind: r.kind,
          error: r.error,
          finishedAt: r.finishedAt?.toISOString() ?? null,
        })),
      },
    };
  },
};

const RUN_HOURS = 24;
const MIN_RUN_URLS = 20;

const runSuspectShare: Rule = {
  name: "run_suspect_share",
  description: "A run whose pages failed their content checks (or came back BLOCKED) for a large share of its URLs",
  page: "/runs",
  thresholds: (c) => [
    {
      setting: "TALLY_ALERT_SUSPECT_PERCENT",
      value: `${c.TALLY_ALERT_SUSPECT_PERCENT}% of a run's URLs (runs of ${MIN_RUN_URLS} URLs or more, created in the last ${RUN_HOURS} h)`,
    },
  ],
  async check(c, now) {
    const runs = await db().run.findMany({
      where: { createdAt: { gte: new Date(now.getTime() - RUN_HOURS * 3_600_000) }, total: { gte: MIN_RUN_URLS } },
      orderBy: { createdAt: "desc" },
      take: 100,
      select: { id: true, name: true, total: true },
    });
    if (runs.length === 0) return { firing: false, summary: "no recent run", details: { runs: [] } };
    // A URL that was ever suspect keeps the check that failed (RunUrl.checkName).
    const groups = await db().runUrl.groupBy({
      by: ["runId"],
      where: { runId: { in: runs.map((r) => r.id) }, checkName: { not: null } },
      _count: { _all: true },
    });
    const suspect = new Map(groups.map((g) => [g.runId, g._count._all]));
    const over = runs
      .map((r) => ({ ...r, suspect: suspect.get(r.id) ?? 0 }))
      .filter((r) => r.suspect * 100 > r.total * c.TALLY_ALERT_SUSPECT_PERCENT)
      .sort((a, b) => b.suspect / b.total - a.suspect / a.total);
    const top = over[0];
    return {
      firing: over.length > 0,
      summary: top
        ? `run ${top.name} (${top.id}): ${top.suspect} of ${top.total} URLs failed a content check or came back BLOCKED (${Math.round((top.suspect / top.total) * 100)}%)`
        : "no recent run over the suspect share",
      details: { runs: over.map((r) => ({ runId: r.id, name: r.name, total: r.total, suspect: r.suspect })) },
    };
  },
};

const runTokenCap: Rule = {
  name: "run_token_cap",
  description: "A run stopped submitting at its token cap (maxTokens, or its collection's monthly cap)",
  page: "/runs",
  thresholds: () => [{ setting: "maxTokens", value: `runs created in the last ${RUN_HOURS} h that reached their cap` }],
  async check(_c, now) {
    const capped = await db().run.findMany({
      where: { createdAt: { gte: new Date(now.getTime() - RUN_HOURS * 3_600_000) }, capReason: { not: null } },
      orderBy: { createdAt: "desc" },
      take: 20,
      select: { id: true, name: true, capReason: true, tokensCharged: true, collectionId: true },
    });
    const top = capped[0];
    return {
      firing: capped.length > 0,
      summary: top
        ? `run ${top.name} (${top.id}) stopped: ${top.capReason ?? "cap reached"}`
        : "no run stopped at its cap",
      details: {
        runs: capped.map((r) => ({
          runId: r.id,
          name: r.name,
          reason: r.capReason,
          tokens: r.tokensCharged,
          collectionId: r.collectionId,
        })),
      },
    };
  },
};

export const RULES: readonly Rule[] = [
  deadLetters,
  unauthorizedSpike,
  subscriptionDrift,
  stalePending,
  queueStalled,
  queueBloat,
  platformErrors,
  safetyNetFailed,
  runSuspectShare,
  runTokenCap,
  bodyStoreUnavailable,
];
