import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { db } from "../db";
import { PROCESS_TAG } from "../runtime";

// Single-flight across processes, in the database: each schedule has one ScheduleLease row, and a
// process runs a unit only if its conditional UPDATE changed that row (one statement, atomic on both
// stores, so exactly one of N racing processes wins). Times come from the processes' clocks: the
// intervals here are seconds to hours, so a clock skew of a few seconds between machines only shifts
// a tick, it never lets two processes win the same one.

export { PROCESS_TAG };

const EPOCH = new Date(0);
/** The rows known to exist, by database client: another database (a test's next one) starts unknown. */
const known = new WeakMap<object, Set<string>>();

async function ensureRow(name: string): Promise<void> {
  const client = db();
  const names = known.get(client) ?? new Set<string>();
  if (names.has(name)) return;
  try {
    await client.scheduleLease.create({ data: { name, lastRunAt: EPOCH, lockedUntil: EPOCH } });
  } catch (err) {
    // Another process created it first: that is all we wanted.
    if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")) throw err;
  }
  known.set(client, names.add(name));
}

/**
 * "Last run" tick: true for exactly one caller per interval across all processes (the one whose
 * UPDATE finds lastRunAt at least intervalMs old and moves it to now).
 */
export async function claimTick(name: string, intervalMs: number, now = new Date()): Promise<boolean> {
  await ensureRow(name);
  const r = await db().scheduleLease.updateMany({
    where: { name, lastRunAt: { lte: new Date(now.getTime() - intervalMs) } },
    data: { lastRunAt: now, holder: PROCESS_TAG },
  });
  return r.count === 1;
}

/**
 * Lease: true if this process holds `name` until now + ttlMs (it was free, had expired, or was
 * already ours and is renewed). A holder that dies loses it when the ttl runs out.
 */
export async function holdLease(name: string, ttlMs: number, holder = PROCESS_TAG, now = new Date()): Promise<boolean> {
  await ensureRow(name);
  const r = await db().scheduleLease.updateMany({
    where: { name, OR: [{ holder }, { lockedUntil: { lte: now } }] },
    data: { holder, lockedUntil: new Date(now.getTime() + ttlMs), lastRunAt: now },
  });
  return r.count === 1;
}

/** Gives a lease back at once (only if still ours). */
export async function releaseLease(name: string, holder = PROCESS_TAG): Promise<void> {
  await db().scheduleLease.updateMany({ where: { name, holder }, data: { lockedUntil: EPOCH } });
}

export type LeaseView = { name: string; holder: string | null; lastRunAt: Date; lockedUntil: Date };

/** The lease rows, for tests and the settings page. */
export function listLeases(): Promise<LeaseView[]> {
  return db().scheduleLease.findMany({ orderBy: { name: "asc" } });
}
