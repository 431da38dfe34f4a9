import "server-only";
import { randomUUID } from "node:crypto";
import { Conflict } from "../errors";
import { holdLease, releaseLease } from "./lease";

/**
 * Runs `fn` only if no other call (in any process) runs the unit `name`: a second concurrent call is
 * refused with Conflict (409 at the cron routes) and does nothing. The lease outlives a crashed holder
 * by at most ttlMs, so ttlMs must exceed the unit's longest run.
 */
export async function singleFlight<T>(name: string, ttlMs: number, fn: () => Promise<T>): Promise<T> {
  // A holder per call, not per process: two calls in one process must not share the lease.
  const holder = `${randomUUID()}`;
  if (!(await holdLease(name, ttlMs, holder))) {
    throw new Conflict(`${name} is already running in another call; this call did nothing`);
  }
  try {
    return await fn();
  } finally {
    await releaseLease(name, holder);
  }
}
