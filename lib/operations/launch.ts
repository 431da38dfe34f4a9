import "server-only";
import { log, type Logger } from "../log";
import { finishRun, heartbeat, HEARTBEAT_MS, startRun, updateProgress, type Json, type StartOptions } from "./runs";
import { getRun, type RunView } from "./view";

/** Thrown by a run's body to fail the run while keeping what it counted so far. */
export class RunFailed extends Error {
  constructor(
    message: string,
    readonly summary: Json,
  ) {
    super(message);
    this.name = "RunFailed";
  }
}

export type RunContext = {
  runId: string;
  /** Replaces the run's progress counts (and beats the heart). */
  progress(p: Json): Promise<void>;
  /** A child logger: every line carries the run's id. */
  log: Logger;
};

export type Launched = {
  runId: string;
  /** False when a run with the same lock key was already running: this is that run. */
  created: boolean;
  /** Settles when the run has ended, with its final row. */
  done: Promise<RunView>;
};

/**
 * Beats a started run's heart until the returned function is called: for work done before
 * runInBackground takes over (a rotation's platform call), so no other process takes the run for dead.
 */
export function keepAlive(runId: string, runLog: Logger = log.child({ runId })): () => void {
  const timer = setInterval(() => {
    heartbeat(runId).catch((err) => runLog.warn("operation heartbeat failed", { error: String(err) }));
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs the body of an already started run in the background: a heartbeat keeps it from being taken
 * over, and whatever happens the run ends as succeeded (with the body's summary) or failed.
 */
export function runInBackground(runId: string, body: (ctx: RunContext) => Promise<Json>): Promise<RunView> {
  const runLog = log.child({ runId });
  const stopBeating = keepAlive(runId, runLog);
  const ctx: RunContext = { runId, progress: (p) => updateProgress(runId, p), log: runLog };
  const run = async () => {
    try {
      const summary = await body(ctx);
      await finishRun(runId, { state: "succeeded", summary });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      runLog.warn("operation run failed", { error: message });
      await finishRun(runId, {
        state: "failed",
        error: message,
        summary: err instanceof RunFailed ? err.summary : undefined,
      });
    } finally {
      stopBeating();
    }
    return mustGetRun(runId);
  };
  return run();
}

/** Starts a single-flight run and its body; a second start while one runs follows the first. */
export async function launchRun(opts: StartOptions, body: (ctx: RunContext) => Promise<Json>): Promise<Launched> {
  const started = await startRun(opts);
  const done = started.created ? runInBackground(started.runId, body) : waitForRun(started.runId);
  // Callers that answer at once (API routes) never await `done`; keep its rejection from escaping.
  done.catch((err) => log.warn("operation run could not be followed", { runId: started.runId, error: String(err) }));
  return { ...started, done };
}

async function mustGetRun(runId: string): Promise<RunView> {
  const run = await getRun(runId);
  if (!run) throw new Error(`operation run ${runId} vanished`);
  return run;
}

/** Polls a run (possibly another process's) until it has ended. */
export async function waitForRun(runId: string, opts: { pollMs?: number; timeoutMs?: number } = {}): Promise<RunView> {
  const pollMs = opts.pollMs ?? 250;
  const deadline = opts.timeoutMs === undefined ? Infinity : Date.now() + opts.timeoutMs;
  for (;;) {
    const run = await mustGetRun(runId);
    if (run.state !== "running") return run;
    if (Date.now() >= deadline) return run;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
