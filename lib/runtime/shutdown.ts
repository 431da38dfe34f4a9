// A graceful stop that works across module copies: Next loads lib/ more than once and server.ts
// carries its own bundled copy, so the registry is a process-wide singleton. When Tally's server owns the
// process (`npm start`), it runs these hooks on SIGTERM and waits for them before exiting; under plain
// `next start` or `next dev`, which exit soon after the signal, features stop at once on it instead.

import { singleton } from "./singleton";

/** Told how long the work in flight may still run before it is handed back. */
type Hook = (finishWithinMs: number) => Promise<void>;
const state = () => singleton("shutdown", () => ({ managed: false, draining: false, hooks: new Set<Hook>() }));

/** Called by server.ts before anything starts: this process stops through runShutdownHooks(). */
export function manageShutdown(): void {
  state().managed = true;
}

export function shutdownIsManaged(): boolean {
  return state().managed;
}

/** The process has been told to stop: GET /api/ready answers 503 `draining` from now on. */
export function startDraining(): void {
  state().draining = true;
}

export function isDraining(): boolean {
  return state().draining;
}

/** Work to finish before the process exits (e.g. the worker's items in flight). */
export function onShutdown(hook: Hook): void {
  state().hooks.add(hook);
}

/**
 * How long items in flight may run within a stop of `graceMs`: all but its last quarter, at most 2 s,
 * which is left for aborting them, releasing their leases and closing.
 */
export function finishWithin(graceMs: number): number {
  return graceMs - Math.min(2000, Math.floor(graceMs / 4));
}

export async function runShutdownHooks(graceMs: number): Promise<void> {
  const finish = finishWithin(graceMs);
  await Promise.allSettled([...state().hooks].map((hook) => hook(finish)));
}
