import "server-only";
import { getConfig, type TallyConfig } from "../config";
import { db, type Tx } from "../db";
import { log } from "../log";
import { singleFlight } from "../scheduling";
import { configuredChannels } from "./channels";
import type { RuleName } from "./contracts";
import { RULES, type Finding, type Rule } from "./rules";
import { silencedAt } from "./silence";

// One evaluation pass, single-flight across processes: each rule is checked at `now` and compared
// with its stored state. ok → firing records a "firing" event; firing → firing records a "repeat"
// once TALLY_ALERT_REPEAT_MINUTES have passed since the last one sent; firing → ok records a
// "resolved". Each event gets one notification row per configured channel in the same transaction
// (the outbox that deliver.ts sends), so a crash never loses or doubles an alert. A silence in force
// records the event with no notification; an acknowledged rule sends no repeats (silence.ts).

export type Transition = {
  rule: RuleName;
  from: "ok" | "firing";
  to: "ok" | "firing";
  event: "firing" | "repeat" | "resolved" | null;
};

export type EvaluateOptions = { now?: Date; config?: TallyConfig };

export function evaluateAlerts(opts: EvaluateOptions = {}): Promise<Transition[]> {
  return singleFlight("alerts:evaluate", 5 * 60_000, () => evaluateOnce(opts));
}

async function evaluateOnce(opts: EvaluateOptions): Promise<Transition[]> {
  const config = opts.config ?? getConfig();
  const now = opts.now ?? new Date();
  const states = new Map((await db().alertState.findMany()).map((s) => [s.rule, s]));
  const out: Transition[] = [];
  for (const rule of RULES) {
    let finding: Finding;
    try {
      finding = await rule.check(config, now);
    } catch (err) {
      // One broken rule must not silence the others.
      log.warn("alert rule could not be evaluated", { rule: rule.name, error: String(err) });
      continue;
    }
    const t = await apply(rule, finding, states.get(rule.name) ?? null, config, now);
    out.push(t);
    if (t.event) log.info("alert state", { rule: rule.name, event: t.event, summary: finding.summary });
  }
  return out;
}

type Stored = {
  state: string;
  since: Date | null;
  lastNotifiedAt: Date | null;
  acknowledgedAt: Date | null;
  silencedUntil: Date | null;
} | null;

async function apply(rule: Rule, f: Finding, stored: Stored, config: TallyConfig, now: Date): Promise<Transition> {
  const from = stored?.state === "firing" ? "firing" : "ok";
  const to = f.firing ? "firing" : "ok";
  const silenced = silencedAt(stored?.silencedUntil, now);
  // Acknowledged: the person on it gets no repeats (silence.ts); a silenced firing sends nothing and,
  // leaving lastNotifiedAt empty, makes the repeat due the moment the silence ends.
  const acknowledged = from === "firing" && stored?.acknowledgedAt != null;
  const repeatDue =
    from === "firing" &&
    to === "firing" &&
    !acknowledged &&
    !silenced &&
    (!stored?.lastNotifiedAt ||
      now.getTime() - stored.lastNotifiedAt.getTime() >= config.TALLY_ALERT_REPEAT_MINUTES * 60_000);
  const event: Transition["event"] =
    from === "ok" && to === "firing"
      ? "firing"
      : repeatDue
        ? "repeat"
        : from === "firing" && to === "ok"
          ? "resolved"
          : null;
  const since = to === "firing" ? (from === "firing" ? (stored?.since ?? now) : now) : null;
  const details = JSON.stringify(f.details);
  await db().$transaction(async (tx) => {
    const data = {
      state: to,
      since,
      summary: f.summary,
      details,
      evaluatedAt: now,
      ...(event === "firing" || event === "repeat"
        ? { lastNotifiedAt: silenced ? null : now }
        : event === "resolved"
          ? { lastNotifiedAt: null }
          : {}),
      // Resolving ends an acknowledgement: the next firing is news again.
      ...(to === "ok" ? { acknowledgedAt: null, acknowledgedBy: null } : {}),
      // An expired silence is cleared so the page stops showing it.
      ...(stored?.silencedUntil && !silenced ? { silencedUntil: null, silencedBy: null, silenceNote: null } : {}),
    };
    await tx.alertState.upsert({ where: { rule: rule.name }, create: { rule: rule.name, ...data }, update: data });
    if (event) {
      await recordEvent(
        tx,
        config,
        {
          rule: rule.name,
          state: event === "resolved" ? "resolved" : "firing",
          kind: event === "repeat" ? "repeat" : "alert",
          suppressed: silenced ? "silenced" : null,
          summary: f.summary,
          details,
          startedAt: (event === "resolved" ? stored?.since : since) ?? now,
          at: now,
        },
        silenced ? [] : configuredChannels(config),
      );
    }
  });
  return { rule: rule.name, from, to, event };
}

export type NewEvent = {
  rule: string;
  state: "firing" | "resolved";
  kind: "alert" | "repeat" | "test";
  suppressed?: "silenced" | null;
  summary: string;
  details: string;
  startedAt: Date;
  at: Date;
};

/** The event and one pending notification per configured channel (or only `channels`), in `tx`. */
export async function recordEvent(
  tx: Tx,
  config: TallyConfig,
  e: NewEvent,
  channels = configuredChannels(config),
): Promise<number> {
  const created = await tx.alertEvent.create({ data: e, select: { id: true } });
  if (channels.length > 0) {
    await tx.alertNotification.createMany({
      data: channels.map((channel) => ({ eventId: created.id, channel, status: "pending", nextAttemptAt: e.at })),
    });
  }
  return created.id;
}
