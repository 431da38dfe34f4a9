import "server-only";
import { getConfig } from "../config";

// Login throttling: at most N failed attempts per client address per window, kept in memory
// (one process serves the login page; a restart forgets, which only helps the operator).

type Bucket = { failures: number; windowStart: number };
const holder = globalThis as unknown as { __tallyLoginThrottle?: Map<string, Bucket> };
const MAX_TRACKED = 10_000;

function buckets(): Map<string, Bucket> {
  holder.__tallyLoginThrottle ??= new Map();
  return holder.__tallyLoginThrottle;
}

/** Seconds until the client may try again, or 0 when it may try now. */
export function loginBlockedFor(client: string, now = Date.now()): number {
  const { TALLY_LOGIN_MAX_ATTEMPTS: max, TALLY_LOGIN_WINDOW_SECONDS: window } = getConfig();
  const b = buckets().get(client);
  if (!b) return 0;
  const ends = b.windowStart + window * 1000;
  if (now >= ends) {
    buckets().delete(client);
    return 0;
  }
  return b.failures >= max ? Math.ceil((ends - now) / 1000) : 0;
}

export function recordLoginFailure(client: string, now = Date.now()): void {
  const map = buckets();
  const window = getConfig().TALLY_LOGIN_WINDOW_SECONDS * 1000;
  const b = map.get(client);
  if (!b || now >= b.windowStart + window) {
    if (map.size >= MAX_TRACKED) map.delete(map.keys().next().value as string);
    map.set(client, { failures: 1, windowStart: now });
  } else {
    b.failures += 1;
  }
}

export function clearLoginFailures(client: string): void {
  buckets().delete(client);
}

export function resetLoginThrottle(): void {
  buckets().clear();
}
