import "server-only";
import { audited } from "../audit";
import { db } from "../db";
import { Conflict, NotFound } from "../errors";
import { RULE_NAMES, type RuleName } from "./contracts";

// Acknowledge and silence, as Alertmanager and PagerDuty have them:
// - Acknowledge ("someone is on it"): only while the rule fires. No repeat is sent while it holds; the
//   "resolved" still is, and resolving clears it, so the next firing alerts again.
// - Silence for a time (5 min to 7 days): the rule goes on being evaluated and shown, its firings and
//   resolves are recorded in the history marked "silenced", and no channel is told. A rule still firing
//   when its silence ends is sent again at once (evaluate.ts: a silenced firing leaves lastNotifiedAt
//   empty, so the repeat is due). Silencing a rule that is ok is allowed: planned maintenance.
// Both are audited and both live in AlertState, the row every process reads.

export const SILENCE_MIN_MINUTES = 5;
export const SILENCE_MAX_MINUTES = 7 * 24 * 60;
export const SILENCE_NOTE_MAX = 200;

function ruleOf(name: string): RuleName {
  const rule = RULE_NAMES.find((r) => r === name);
  if (!rule) throw new NotFound(`No alert rule "${name}"`);
  return rule;
}

export type AckResult = { rule: RuleName; acknowledgedAt: string; acknowledgedBy: string };

export async function acknowledgeAlert(name: string, actor: string, now = new Date()): Promise<AckResult> {
  const rule = ruleOf(name);
  return audited({ actor, action: "alerts.acknowledge", target: rule }, async () => {
    // Conditional on "firing", so an acknowledgement cannot land on a rule that resolved meanwhile.
    const { count } = await db().alertState.updateMany({
      where: { rule, state: "firing" },
      data: { acknowledgedAt: now, acknowledgedBy: actor },
    });
    if (count === 0) throw new Conflict(`The rule ${rule} is not firing: only a firing alert can be acknowledged`);
    return { rule, acknowledgedAt: now.toISOString(), acknowledgedBy: actor };
  });
}

export type SilenceResult = { rule: RuleName; silencedUntil: string | null; silencedBy: string | null };

export async function silenceAlert(
  name: string,
  minutes: number,
  note: string | null,
  actor: string,
  now = new Date(),
): Promise<SilenceResult> {
  const rule = ruleOf(name);
  const until = new Date(now.getTime() + minutes * 60_000);
  const data = { silencedUntil: until, silencedBy: actor, silenceNote: note };
  return audited({ actor, action: "alerts.silence", target: rule, detail: { minutes, note } }, async () => {
    await db().alertState.upsert({ where: { rule }, create: { rule, ...data }, update: data });
    return { rule, silencedUntil: until.toISOString(), silencedBy: actor };
  });
}

export async function unsilenceAlert(name: string, actor: string): Promise<SilenceResult> {
  const rule = ruleOf(name);
  return audited({ actor, action: "alerts.unsilence", target: rule }, async () => {
    await db().alertState.updateMany({
      where: { rule },
      data: { silencedUntil: null, silencedBy: null, silenceNote: null },
    });
    return { rule, silencedUntil: null, silencedBy: null };
  });
}

/** Whether a silence is in force at `now`. */
export const silencedAt = (until: Date | null | undefined, now: Date) => until != null && until > now;
