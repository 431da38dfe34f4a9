import "server-only";
import { getConfig } from "../config";
import { db } from "../db";

// Login throttling: at most TALLY_LOGIN_MAX_ATTEMPTS failed sign-ins per key per window of
// TALLY_LOGIN_WINDOW_SECONDS, counted in the database (LoginThrottle) so that every server behind a
// load balancer counts the same failures: alternating servers gains an attacker nothing. Keys name
// their kind — `pair:<address>|<email>` (this account from this address: the limit itself),
// `ip:<address>` (every account from it: ADDRESS_FACTOR times the limit) and `account:<email>` (from
// every address: ACCOUNT_FACTOR times) — and a sign-in is refused while any is over. So one person's
// mistyping pauses only their own account from their own address, not the colleagues behind the same
// office address (issue 49), while guessing many accounts from one address, or one account from many,
// still stops. A fixed window starting at the first failure: one upsert per failure,
// one primary-key read per attempt. Rows whose window has ended are deleted on write (indexed), so the
// table holds only the clients that failed within the last window.

/** The throttle key for a client address (every account tried from it). */
export const addressKey = (address: string) => `ip:${address}`;
/** The throttle key for one account tried from one address. */
export const pairKey = (address: string, email: string) => `pair:${address}|${email.trim().toLowerCase()}`;
/** The throttle key for an account (the e-mail tried, whether or not it exists). */
export const accountKey = (email: string) => `account:${email.trim().toLowerCase()}`;

type Row = { failures: bigint | number; windowStart: bigint | number };

/** An account allows this many times the failures of one address: one address meets its own limit
 * first (so it cannot lock a person out alone), while guesses spread over many addresses still stop. */
export const ACCOUNT_FACTOR = 3;
/** An address allows this many times the failures of one account from it (several people, one address). */
export const ADDRESS_FACTOR = 4;

/** The failures a key allows per window. */
function limitOf(key: string): number {
  const max = getConfig().TALLY_LOGIN_MAX_ATTEMPTS;
  return key.startsWith("account:") ? max * ACCOUNT_FACTOR : key.startsWith("ip:") ? max * ADDRESS_FACTOR : max;
}

/** Seconds until the key may try again, or 0 when it may try now. */
export async function loginBlockedFor(key: string, now = Date.now()): Promise<number> {
  const { TALLY_LOGIN_WINDOW_SECONDS: window } = getConfig();
  const max = limitOf(key);
  const rows = await db().$queryRaw<Row[]>`SELECT "failures", "windowStart" FROM "LoginThrottle" WHERE "key" = ${key}`;
  if (rows.length === 0) return 0;
  const ends = Number(rows[0].windowStart) + window * 1000;
  if (now >= ends || Number(rows[0].failures) < max) return 0;
  return Math.ceil((ends - now) / 1000);
}

/** Counts one failure: starts a new window when the last one has ended. */
export async function recordLoginFailure(key: string, now = Date.now()): Promise<void> {
  const windowStartCutoff = BigInt(now - getConfig().TALLY_LOGIN_WINDOW_SECONDS * 1000);
  const at = BigInt(now);
  await db().$executeRaw`
    INSERT INTO "LoginThrottle" ("key", "failures", "windowStart") VALUES (${key}, 1, ${at})
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "LoginThrottle"."windowStart" <= ${windowStartCutoff} THEN 1 ELSE "LoginThrottle"."failures" + 1 END,
      "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= ${windowStartCutoff} THEN ${at} ELSE "LoginThrottle"."windowStart" END`;
  await db().$executeRaw`DELETE FROM "LoginThrottle" WHERE "windowStart" <= ${windowStartCutoff}`;
}

/**
 * Counts an attempt before it is evaluated, in one atomic statement, and says how long to wait (0: go
 * ahead). Checking first and counting after a failure let parallel guesses all pass the check before
 * any was counted (16 at once: 8 evaluated against a limit of 5); now the n-th attempt of a window is
 * evaluated only when n is within the limit. A successful sign-in clears the key.
 */
export async function takeLoginAttempt(key: string, now = Date.now()): Promise<{ wait: number; left: number }> {
  const { TALLY_LOGIN_WINDOW_SECONDS: window } = getConfig();
  const max = limitOf(key);
  const cutoff = BigInt(now - window * 1000);
  const at = BigInt(now);
  const rows = await db().$queryRaw<Row[]>`
    INSERT INTO "LoginThrottle" ("key", "failures", "windowStart") VALUES (${key}, 1, ${at})
    ON CONFLICT ("key") DO UPDATE SET
      "failures" = CASE WHEN "LoginThrottle"."windowStart" <= ${cutoff} THEN 1 ELSE "LoginThrottle"."failures" + 1 END,
      "windowStart" = CASE WHEN "LoginThrottle"."windowStart" <= ${cutoff} THEN ${at} ELSE "LoginThrottle"."windowStart" END
    RETURNING "failures", "windowStart"`;
  await db().$executeRaw`DELETE FROM "LoginThrottle" WHERE "windowStart" <= ${cutoff}`;
  const row = rows[0];
  // `left`: the attempts still allowed after this one, should it fail.
  if (!row || Number(row.failures) <= max) return { wait: 0, left: max - Number(row?.failures ?? 1) };
  return { wait: Math.max(1, Math.ceil((Number(row.windowStart) + window * 1000 - now) / 1000)), left: 0 };
}

/** "15 minutes", "40 s": how long a pause lasts, in words. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

export async function clearLoginFailures(key: string): Promise<void> {
  await db().$executeRaw`DELETE FROM "LoginThrottle" WHERE "key" = ${key}`;
}
