import "server-only";
import { db } from "../db";
import { log } from "../log";

// Platform calls per minute and status class, written to PlatformCallMinute in one statement per
// few seconds so the platform_errors alert sees every process's calls (a write per call would cost
// more than the call). Counts survive a failed write and go out with the next one.

const FLUSH_MS = 5000;
type State = { counts: Map<string, { minute: Date; statusClass: string; count: number }>; timer?: NodeJS.Timeout };
const holder = globalThis as unknown as { __tallyPlatformCallMinutes?: State };
const state = (): State => (holder.__tallyPlatformCallMinutes ??= { counts: new Map() });

export function notePlatformCall(statusClass: string, now = Date.now()): void {
  const s = state();
  const minute = new Date(Math.floor(now / 60_000) * 60_000);
  const key = `${minute.getTime()} ${statusClass}`;
  const entry = s.counts.get(key);
  if (entry) entry.count++;
  else s.counts.set(key, { minute, statusClass, count: 1 });
  if (!s.timer) {
    s.timer = setTimeout(() => void flushPlatformCalls().catch((err) => log.warn("platform call counts not saved; will retry", { error: String(err) })), FLUSH_MS);
    s.timer.unref();
  }
}

export async function flushPlatformCalls(): Promise<void> {
  const s = state();
  clearTimeout(s.timer);
  s.timer = undefined;
  const pending = [...s.counts.values()];
  s.counts.clear();
  if (pending.length === 0) return;
  try {
    await db().$transaction(
      pending.map(
        (p) => db().$executeRaw`
          INSERT INTO "PlatformCallMinute" ("minute", "statusClass", "count") VALUES (${p.minute}, ${p.statusClass}, ${p.count})
          ON CONFLICT ("minute", "statusClass") DO UPDATE SET "count" = "PlatformCallMinute"."count" + excluded."count"`,
      ),
    );
  } catch (err) {
    for (const p of pending) {
      const key = `${p.minute.getTime()} ${p.statusClass}`;
      const entry = s.counts.get(key);
      if (entry) entry.count += p.count;
      else s.counts.set(key, p);
    }
    throw err;
  }
}
