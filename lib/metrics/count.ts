import "server-only";
import { metrics } from "./registry";

// What the rest of lib/ calls to count: one line at each place where the thing happens.

/** The receiver answered: `label` is accepted | duplicate | ignored, or the status ("401"; 5xx as "5xx"). */
export function countDelivery(status: number, outcome: string | undefined, startedAt: number): void {
  const m = metrics();
  const label = status === 200 && outcome ? outcome : status >= 500 && status <= 599 ? "5xx" : String(status);
  m.deliveries.inc({ process: m.processTag, status: label });
  m.deliveryDuration.observe({ process: m.processTag }, Math.max(0, Date.now() - startedAt) / 1000);
}

export function countJobOutcome(kind: string, outcome: string, settledAt: Date | null, at = new Date()): void {
  const m = metrics();
  m.jobOutcomes.inc({ process: m.processTag, kind, outcome });
  if (outcome === "stored" && settledAt)
    m.settledToStored.observe({ process: m.processTag }, Math.max(0, at.getTime() - settledAt.getTime()) / 1000);
}

export function statusClass(status: number | null): string {
  return status === null ? "none" : `${Math.floor(status / 100)}xx`;
}

export function countPlatformCall(endpoint: string, status: number | null): void {
  const m = metrics();
  const cls = statusClass(status);
  m.platformCalls.inc({ process: m.processTag, endpoint, status_class: cls });
}

/** A 429 extended the pause by `ms` (only the part beyond a pause already in force). */
export function countRateLimitedMs(ms: number): void {
  if (ms <= 0) return;
  const m = metrics();
  m.rateLimitedSeconds.inc({ process: m.processTag }, ms / 1000);
}

/** A page of a run's chunk stored (issue 39): its content-check verdict and the tokens charged at its rung. */
export function countJudgedPage(verdict: string | null, rung: number, tokens: number): void {
  const m = metrics();
  if (verdict !== null) m.checkVerdicts.inc({ process: m.processTag, verdict });
  if (tokens > 0) m.runTokens.inc({ process: m.processTag, rung: String(rung) }, tokens);
}

export function countSafetyNetRun(kind: string, state: string): void {
  const m = metrics();
  m.safetyNetRuns.inc({ process: m.processTag, kind, state });
}

/** A reader met a body it could not return as stored (`code`: body_missing | body_corrupt). */
export function countBodyMissing(code: string): void {
  const m = metrics();
  m.bodyMissing.inc({ process: m.processTag, code });
}

/** A read of a body the body store did not answer (BodyUnavailable). */
export function countBodyUnavailable(): void {
  const m = metrics();
  m.bodyUnavailable.inc({ process: m.processTag });
}

/** One body put (`seconds` from the hash to the durable write) or one body read back in full. */
export function observeBodyIo(op: "put" | "get", seconds: number): void {
  const m = metrics();
  (op === "put" ? m.bodyPutDuration : m.bodyGetDuration).observe({ process: m.processTag }, seconds);
}

/** A reader got a body from the body store: from the process's cache of texts, or read from the store. */
export function countBodyRead(source: "cache" | "store"): void {
  const m = metrics();
  m.bodyReads.inc({ process: m.processTag, source });
}

/** A sweep of the body store removed `objects` unreferenced objects of `bytes` stored bytes. */
export function countBodySweep(objects: number, bytes: number): void {
  const m = metrics();
  m.bodySweepDeleted.inc({ process: m.processTag }, objects);
  m.bodySweepDeletedBytes.inc({ process: m.processTag }, bytes);
}

/** The judging pool's state after a change: tasks waiting, threads busy, threads allowed. */
export function setJudgePool(queued: number, busy: number, threads: number): void {
  const m = metrics();
  m.judgeQueued.set({ process: m.processTag }, queued);
  m.judgeBusy.set({ process: m.processTag }, busy);
  m.judgeThreads.set({ process: m.processTag }, threads);
}

/** A judging task finished: how long it ran and, when it gave no answer, why. */
export function countJudgeTask(kind: string, ms: number, failure: string | null): void {
  const m = metrics();
  m.judgeDuration.observe({ process: m.processTag, kind }, ms / 1000);
  if (failure) m.judgeOverruns.inc({ process: m.processTag, kind, reason: failure });
}
