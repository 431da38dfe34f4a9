import "server-only";
import type { z } from "zod";
import type { ClaimedItem } from "./types";

// Each queue item kind is declared once: its name, the zod schema of its payload, and its handler.
// The worker parses every payload with the schema before calling the handler, so a handler only ever
// sees a valid payload and a malformed one becomes a dead letter instead of a crash.

export type HandlerContext = {
  item: ClaimedItem;
  /** Aborted when the per-item timeout expires or the worker shuts down; pass it to every call. */
  signal: AbortSignal;
};

/** Returned by a handler for "not yet": the item runs again later without using up an attempt. */
export type Reschedule = { reschedule: { delayMs: number; reason: string } };

/**
 * Returned by a handler that acked its own item in the transaction that finished the work (ackWithin or
 * ackStatement, lease.ts): the worker sends no ack of its own. `acked` false: the lease had been taken over.
 */
export type AckedWithin = { ackedWithin: boolean };

export type JobKindDef<S extends z.ZodType = z.ZodType> = {
  name: string;
  schema: S;
  handle(payload: z.output<S>, ctx: HandlerContext): Promise<void | Reschedule | AckedWithin>;
};

export function defineKind<S extends z.ZodType>(def: JobKindDef<S>): JobKindDef<S> {
  return def;
}

export function rescheduleIn(delayMs: number, reason: string): Reschedule {
  return { reschedule: { delayMs, reason } };
}

/** Thrown by a handler when trying again cannot help: the item is dead-lettered at once. */
export class PermanentFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PermanentFailure";
  }
}

export type Registry = {
  get(name: string): JobKindDef | undefined;
  names(): string[];
};

export function createRegistry(kinds: JobKindDef[]): Registry {
  const byName = new Map<string, JobKindDef>();
  for (const k of kinds) {
    if (byName.has(k.name)) throw new Error(`queue kind "${k.name}" registered twice`);
    byName.set(k.name, k);
  }
  return { get: (name) => byName.get(name), names: () => [...byName.keys()] };
}
