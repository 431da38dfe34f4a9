import "server-only";
import { getConfig } from "../config";
import { db } from "../db";
import { UpstreamFailure } from "../errors";
import { log } from "../log";
import { countPlatformCall } from "../metrics";
import { createPlatformClient, type PlatformClient } from "./http-client";
import type { CallInfo, CallObserver } from "./request";
import { SharedBreaker } from "./shared-breaker";
import { SharedBudget } from "./shared-budget";
import { PROCESS_TAG, singleton } from "../runtime";

// One platform client per base URL and process. Its rate budget, 429 pause and circuit breaker live in
// the database (shared-budget.ts, shared-breaker.ts), so every process on it, servers and workers
// alike, shares them. Built lazily because in demo mode the base URL is known only once the simulator listens.
// Calls are counted per minute, endpoint, purpose and answer class in memory and flushed in one
// transaction every few seconds (ApiCallMinute, read by the API budget view): a database write per
// API call would cost more than the call it counts. Other observers (a metrics exporter) attach with
// addCallObserver; every client built here calls them all.

const FLUSH_MS = 5000;

type Count = { minute: Date; endpoint: string; purpose: string; answer: string; count: number };
type State = {
  clients: Map<string, PlatformClient>;
  breakers: SharedBreaker[];
  counts: Map<string, Count>;
  observers: CallObserver[];
  timer?: NodeJS.Timeout;
  /** The last flush, settled or not (never rejects): the next one starts after it. */
  flushing?: Promise<void>;
};
const state = (): State =>
  singleton<State>("platform.clients", () => ({
    clients: new Map(),
    breakers: [],
    counts: new Map(),
    observers: [countCall],
  }));

/** Adds an observer of every platform call (of clients built before and after); returns its removal. */
export function addCallObserver(observer: CallObserver): () => void {
  const s = state();
  s.observers.push(observer);
  return () => {
    const i = s.observers.indexOf(observer);
    if (i >= 0) s.observers.splice(i, 1);
  };
}

function notifyObservers(info: CallInfo): void {
  for (const o of state().observers) {
    try {
      o(info);
    } catch (err) {
      log.warn("a platform call observer failed", { error: String(err) });
    }
  }
}

/** The shared client for the configured platform (the simulator in demo mode). */
export function getPlatformClient(): PlatformClient {
  const config = getConfig();
  const baseUrl = config.apiBaseUrl;
  if (!baseUrl) throw new UpstreamFailure("The platform is not configured yet (demo simulator not started)");
  const s = state();
  let client = s.clients.get(baseUrl);
  if (!client) {
    const key = `platform ${baseUrl}`;
    const breaker = new SharedBreaker({
      key,
      me: PROCESS_TAG,
      timeoutMs: config.TALLY_API_TIMEOUT_MS,
      capMs: config.TALLY_PLATFORM_BREAKER_MAX_SECONDS * 1000,
    });
    s.breakers.push(breaker);
    client = createPlatformClient({
      baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.TALLY_API_TIMEOUT_MS,
      maxAnswerBytes: config.TALLY_PLATFORM_MAX_ANSWER_MB * 1024 * 1024,
      limiter: new SharedBudget({ key, requestsPerSecond: config.TALLY_API_RPS }),
      onCall: notifyObservers,
      breaker,
    });
    s.clients.set(baseUrl, client);
  }
  return client;
}

function countCall(info: CallInfo): void {
  countPlatformCall(info.endpoint, info.status);
  const s = state();
  const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const key = keyOf({ minute, endpoint: info.endpoint, purpose: info.purpose, answer: info.answer });
  const entry = s.counts.get(key);
  if (entry) entry.count++;
  else s.counts.set(key, { minute, endpoint: info.endpoint, purpose: info.purpose, answer: info.answer, count: 1 });
  scheduleFlush(s);
}

const keyOf = (c: Omit<Count, "count">) => `${c.minute.getTime()}|${c.endpoint}|${c.purpose}|${c.answer}`;

function scheduleFlush(s: State): void {
  if (s.timer) return;
  s.timer = setTimeout(
    () =>
      void flushApiCalls().catch((err) => log.warn("api call counts not saved; will retry", { error: String(err) })),
    FLUSH_MS,
  );
  s.timer.unref();
}

/**
 * Writes the pending counts and waits for the breaker writes under way (also called at shutdown, by
 * the budget view and by tests). Counts survive a failed write. Flushes run one after another: a caller returns only once every count noted before
 * its call is written, including those a flush already under way (the timer's) took.
 */
export function flushApiCalls(): Promise<void> {
  const s = state();
  const run = (s.flushing ?? Promise.resolve()).then(() => writePending(s));
  s.flushing = run.catch(() => undefined); // a failed flush put its counts back for the next one
  return Promise.all([run, ...s.breakers.map((b) => b.settled())]).then(() => undefined);
}

async function writePending(s: State): Promise<void> {
  clearTimeout(s.timer);
  s.timer = undefined;
  const pending = [...s.counts.values()];
  s.counts.clear();
  if (pending.length === 0) return;
  try {
    await db().$transaction(
      pending.map(
        (p) => db().$executeRaw`
          INSERT INTO "ApiCallMinute" ("minute", "endpoint", "purpose", "answer", "count") VALUES (${p.minute}, ${p.endpoint}, ${p.purpose}, ${p.answer}, ${p.count})
          ON CONFLICT ("minute", "endpoint", "purpose", "answer") DO UPDATE SET "count" = "ApiCallMinute"."count" + excluded."count"`,
      ),
    );
  } catch (err) {
    for (const p of pending) {
      const key = keyOf(p);
      const entry = s.counts.get(key);
      if (entry) entry.count += p.count;
      else s.counts.set(key, p);
    }
    scheduleFlush(s);
    throw err;
  }
}

/** Tests point the config at a fresh simulator; drop clients bound to old URLs. */
export function resetPlatformClients(): void {
  state().clients.clear();
  state().breakers = [];
}
