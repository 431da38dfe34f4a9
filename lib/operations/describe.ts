// A run in words: what was asked, by whom or by what, and its result as sentences and small tables
// ("checked 18 jobs: 17 too recent to judge, 1 still running, none missing"). Pure and free of
// server-only imports, so the run page's client part uses it on every live refresh.

type J = unknown;
export type RunLike = {
  id: string;
  kind: string;
  state: "running" | "succeeded" | "failed";
  params?: J;
  progress?: J;
  summary?: J;
  error?: string | null;
  startedBy?: string | null;
};
export type SubscriptionName = { id: string; eventType: string };
export type FactTable = { caption: string; columns: string[]; rows: Array<Array<string | number>> };
export type Described = {
  title: string;
  asked: string;
  /** Who or what; with runId, the run that started this one, linked as before + linkText + after. */
  by: { text: string; runId?: string; before?: string; linkText?: string; after?: string; short?: string };
  sentences: string[];
  tables: FactTable[];
  /** A rotation waiting before its replay: when the replay starts. */
  replayAt?: string;
  /** A run this one started (a rotation's replay), or that finished its work (a recovery). */
  childRunId?: string;
  childLabel?: string;
};

const obj = (v: J): Record<string, J> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, J>) : {};
const num = (v: J): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const str = (v: J): string | null => (typeof v === "string" && v ? v : null);
const list = (v: J): J[] => (Array.isArray(v) ? v : []);

/** "1 job", "2 jobs", "no jobs". */
export function count(n: number, one: string, many = `${one}s`, none = `no ${many}`): string {
  if (n === 0) return none;
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

function joinParts(parts: string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

const KIND_TITLE: Record<string, string> = {
  reconcile: "Reconciliation",
  replay: "Replay of failed deliveries",
  rotate: "Secret rotation",
  register: "Webhook registration",
  poll: "Polling",
};

function subName(id: string | null, subs: SubscriptionName[]): string {
  if (!id) return "every subscription";
  const s = subs.find((x) => x.id === id);
  return s ? `the ${s.eventType} subscription` : `subscription ${id.slice(0, 8)}`;
}

/** How times inside sentences are written; the browser passes one that uses the operator's zone. */
export type FormatTime = (iso: string) => string;
const utc: FormatTime = (iso) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Why a run whose process stopped failed: written by lib/operations/runs.ts, read back below for the page. */
export const abandonedError = (heartbeatAt: Date) =>
  `abandoned: no heartbeat since ${heartbeatAt.toISOString()} (its process stopped)`;
const ABANDONED = /^abandoned: no heartbeat since (\S+) \(its process stopped\)$/;

/** A rotation that ended without its work done: what Tally did about it (lib/subscriptions/recover.ts). */
function rotationRecovery(recovery: string | null, note: string | null): string {
  switch (recovery) {
    case "replayed":
      return "Tally stopped during this rotation after storing the new secret; the deliveries refused with 401 are replayed by the recovery.";
    case "rotated_again":
      return "The new secret was never stored (the platform's answer was lost, or Tally stopped before storing it), so the platform may have signed with a secret nobody had. Tally rotated again and replays the deliveries refused with 401 since the spike began.";
    case "none":
      return `Tally stopped during this rotation: ${note ?? "nothing left to recover"}.`;
    default:
      return "The new secret was never stored (the platform's answer was lost, or Tally stopped before storing it), so the platform may sign with a secret nobody has. Tally rotates again by itself until an answer arrives.";
  }
}

function startedBy(run: RunLike): Described["by"] {
  const p = obj(run.params);
  const trigger = str(p.trigger);
  const who = run.startedBy ?? "unknown";
  if (trigger && trigger !== "operator" && /^[0-9a-f-]{16,}$/i.test(trigger)) {
    return {
      text: `the secret rotation it belongs to (started by ${who})`,
      runId: trigger,
      before: "",
      linkText: "the secret rotation",
      after: ` it belongs to (${who})`,
      short: "its secret rotation",
    };
  }
  const recovering = /^recovery of run (\S+)$/.exec(who);
  if (recovering)
    return {
      text: "Tally, recovering an interrupted rotation",
      runId: recovering[1],
      before: "Tally, recovering ",
      linkText: "an interrupted rotation",
      after: "",
      short: "recovery",
    };
  if (who.startsWith("scheduler")) return { text: "the schedule" };
  if (who === "cron") return { text: "an external scheduler (cron route)" };
  if (who === "demo") return { text: "demo mode at start-up" };
  return { text: who };
}

function reconcileResult(s: Record<string, J>): { sentences: string[]; tables: FactTable[] } {
  const listed = num(s.listed);
  const parts = [
    num(s.tooRecent) ? `${num(s.tooRecent).toLocaleString("en-US")} too recent to judge` : "",
    num(s.stillRunning) ? `${num(s.stillRunning).toLocaleString("en-US")} still running` : "",
    num(s.alreadyDone) ? `${num(s.alreadyDone).toLocaleString("en-US")} already had an outcome` : "",
    num(s.alreadyQueued) ? `${num(s.alreadyQueued).toLocaleString("en-US")} already queued` : "",
  ].filter(Boolean);
  const missing = num(s.enqueued);
  parts.push(missing ? `${missing.toLocaleString("en-US")} missing an outcome, queued now` : "none missing");
  const sentences = [`Checked ${count(listed, "job")} on the platform: ${joinParts(parts)}.`];
  const scope = str(s.scope);
  if (scope === "full") sentences.unshift("A full scan of the platform's job history.");
  else if (scope === "recent")
    sentences.unshift("A recent scan: only the jobs created since each kind's watermark, less an overlap.");
  if (num(s.created))
    sentences.push(
      `${count(num(s.created), "job was", "jobs were")} unknown to Tally before and ${num(s.created) === 1 ? "is" : "are"} now tracked.`,
    );
  if (num(s.pages)) sentences.push(`Read ${count(num(s.pages), "page")} of the platform's job lists.`);
  const stale = obj(s.stalePending);
  if (num(stale.count))
    sentences.push(
      `${count(num(stale.count), "job has", "jobs have")} been pending locally for over ${num(stale.olderThanMinutes)} min.`,
    );
  const subs = obj(s.subscriptions);
  if (num(subs.checked)) {
    const drift = list(subs.drift);
    sentences.push(
      drift.length
        ? `${count(drift.length, "subscription no longer points", "subscriptions no longer point")} at Tally (of ${num(subs.checked)} checked).`
        : `All ${num(subs.checked)} subscriptions still point at Tally.`,
    );
  }
  const unavailable = list(s.unavailable);
  if (unavailable.length)
    sentences.push(
      `The platform could not list: ${unavailable.map((u) => (typeof u === "string" ? u : JSON.stringify(u))).join(", ")}.`,
    );
  const byKind = obj(s.byKind);
  const rows = Object.entries(byKind).map(([k, v]) => [
    k,
    str(obj(v).scope) ?? "",
    num(obj(v).pages),
    num(obj(v).listed),
    num(obj(v).enqueued),
  ]);
  return {
    sentences,
    tables: rows.length
      ? [{ caption: "By kind", columns: ["Kind", "Scan", "Pages", "Listed", "Queued now"], rows }]
      : [],
  };
}

function replayResult(
  s: Record<string, J>,
  params: Record<string, J>,
  subs: SubscriptionName[],
): { sentences: string[]; tables: FactTable[] } {
  const perSub = list(s.subscriptions).map(obj);
  const deliveries = perSub.reduce((n, x) => n + num(x.deliveries), 0);
  const failed = perSub.reduce((n, x) => n + num(x.failedJobs), 0);
  const only401 = params.only401 === true;
  const sentences = [
    `Checked ${count(deliveries, "delivery", "deliveries")} in the platform's log of ${perSub.length === 1 ? (str(perSub[0]?.eventType) ? `the ${str(perSub[0]?.eventType)} subscription` : subName(str(perSub[0]?.subscriptionId ?? null), subs)) : count(perSub.length, "subscription")}: ${count(failed, only401 ? "job refused with 401" : "job whose webhook failed", only401 ? "jobs refused with 401" : "jobs whose webhook failed")}.`,
  ];
  if (failed || num(s.enqueued) || num(s.alreadyDone) || num(s.alreadyQueued)) {
    const parts = [count(num(s.enqueued), "job queued again", "jobs queued again", "none queued again")];
    if (num(s.alreadyDone)) parts.push(`${num(s.alreadyDone)} already had an outcome`);
    if (num(s.alreadyQueued)) parts.push(`${num(s.alreadyQueued)} already queued`);
    sentences.push(`${joinParts(parts)}.`.replace(/^./, (c) => c.toUpperCase()));
  } else {
    sentences.push("Nothing needed replaying.");
  }
  if (num(s.created)) sentences.push(`${count(num(s.created), "job was", "jobs were")} unknown to Tally before.`);
  const rows = perSub.map((x) => [
    str(x.eventType) ?? str(x.subscriptionId)?.slice(0, 8) ?? "?",
    num(x.deliveries),
    num(x.status401),
    num(x.failedJobs),
    num(x.enqueued),
    num(x.alreadyDone),
  ]);
  return {
    sentences,
    tables: rows.length
      ? [
          {
            caption: "By subscription",
            columns: ["Subscription", "Deliveries", "401s", "Failed jobs", "Queued", "Already done"],
            rows,
          },
        ]
      : [],
  };
}

export function describeRun(run: RunLike, subs: SubscriptionName[] = [], formatTime: FormatTime = utc): Described {
  const when = (iso: string | null) => (iso ? formatTime(iso) : "");
  const p = obj(run.params);
  const s = obj(run.state === "running" ? run.progress : (run.summary ?? run.progress));
  const title = KIND_TITLE[run.kind] ?? run.kind;
  const by = startedBy(run);
  const out: Described = { title, asked: "", by, sentences: [], tables: [] };
  switch (run.kind) {
    case "reconcile": {
      const older = num(p.olderThanSeconds);
      out.asked = `Find every settled job on the platform${older ? ` older than ${older} s` : ""}${str(p.since) ? ` created since ${when(str(p.since))}` : ""} whose outcome is missing here, and process it.`;
      Object.assign(out, reconcileResult(s));
      if (run.state === "running")
        out.sentences = [
          `Working: ${num(s.listed)} listed so far${str(s.kind) ? `, reading ${s.kind} jobs (page ${num(s.page)} of ${num(s.pageCount)})` : ""}.`,
        ];
      break;
    }
    case "replay": {
      const since = str(p.since);
      out.asked = `Read the platform's delivery log of ${subName(str(p.subscriptionId), subs)}${since ? ` since ${when(since)}` : ""} and queue every job whose ${p.only401 === true ? "delivery Tally refused with 401" : "webhook failed"}.`;
      Object.assign(out, replayResult(s, p, subs));
      if (run.state === "running")
        out.sentences = [
          `Working: ${count(num(s.deliveries), "delivery", "deliveries")} read, ${count(num(s.failedJobs), "failed job")} found so far.`,
        ];
      break;
    }
    case "rotate": {
      const sub = subName(str(p.subscriptionId), subs);
      out.asked =
        p.source === "set_elsewhere"
          ? `Store a secret rotated outside Tally for ${sub}, then replay the deliveries refused with 401 since the spike.`
          : str(p.recovers)
            ? `Rotate the signing secret of ${sub} again, because an earlier rotation did not store the secret the platform may have issued (it shows a new secret once), then replay the deliveries refused with 401 since the spike began.`
            : `Rotate the signing secret of ${sub}, wait for deliveries signed with the old one to settle, then replay the deliveries refused with 401.`;
      const recovery = str(s.recovery);
      if (run.state === "running") {
        if (s.phase === "settling") {
          out.replayAt = str(s.replayAt) ?? undefined;
          out.sentences = [
            `Secret stored. Waiting ${num(s.settleSeconds)} s for deliveries in flight to settle before replaying the 401s.`,
          ];
        } else if (s.phase === "replaying")
          out.sentences = ["Secret stored. Replaying the deliveries refused with 401…"];
        else out.sentences = ["Asking the platform for a new secret…"];
      } else if (recovery || s.secretInDoubt === true) {
        out.sentences = [rotationRecovery(recovery, str(s.note))];
        if (str(s.recoveredBy)) {
          out.childRunId = str(s.recoveredBy) ?? undefined;
          out.childLabel =
            recovery === "replayed" ? "Open the replay that finished it →" : "Open the rotation that recovered it →";
        }
      } else if (run.summary) {
        const last4 = str(s.secretLast4);
        out.sentences = [
          `The new secret${last4 ? ` (ending ${last4})` : ""} is in use${str(s.replaySince) ? `; deliveries since ${when(str(s.replaySince))} were checked for 401s` : ""}.`,
        ];
        const r = replayResult(obj(s.replay), { only401: true }, subs);
        out.sentences.push(...r.sentences);
        out.tables = r.tables;
        out.childRunId = str(s.replayRunId) ?? undefined;
      }
      break;
    }
    case "register": {
      out.asked =
        "Register the three webhook subscriptions at this Tally's receiver, repairing any that point elsewhere.";
      const reg = list(s.registered),
        rep = list(s.repaired),
        same = list(s.unchanged);
      const names = (xs: J[]) => xs.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(", ");
      out.sentences = [
        reg.length
          ? `Registered ${count(reg.length, "subscription")}: ${names(reg)}.`
          : "No new subscription was needed.",
        ...(rep.length ? [`Repaired ${names(rep)}.`] : []),
        ...(same.length ? [`Unchanged: ${names(same)}.`] : []),
      ];
      break;
    }
    default:
      out.asked = `A ${run.kind} run.`;
  }
  if (run.state === "failed") {
    // A run whose process stopped: its last heartbeat as the page shows times.
    const stopped = ABANDONED.exec(run.error ?? "");
    const reason = stopped
      ? `its process stopped (no heartbeat since ${when(stopped[1])})`
      : (run.error ?? "no reason was recorded").replace(/\.$/, "");
    out.sentences.unshift(`It failed: ${reason}.`);
  }
  return out;
}
