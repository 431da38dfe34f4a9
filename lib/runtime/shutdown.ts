// A graceful stop that works across module copies: Next loads lib/ more than once and server.ts
// carries its own bundled copy, so the registry is a process-wide singleton. When Tally's server owns the
// process (`npm start`), it runs these hooks on SIGTERM and waits for them before exiting; under plain
// `next start` or `next dev`, which exit soon after the signal, features stop at once on it instead.

import { singleton } from "./singleton";

type Hook = () => Promise<void>;
const state = () => singleton("shutdown", () => ({ managed: false, hooks: new Set<Hook>() }));

/** Called by server.ts before anything starts: this process stops through runShutdownHooks(). */
export function manageShutdown(): void {
  state().managed = true;
}

export function shutdownIsManaged(): boolean {
  return state().managed;
}

/** Work to finish before the process exits (e.g. the worker's items in flight). */
export function onShutdown(hook: Hook): void {
  state().hooks.add(hook);
}

export async function runShutdownHooks(): Promise<void> {
  await Promise.allSettled([...state().hooks].map((hook) => hook()));
}
