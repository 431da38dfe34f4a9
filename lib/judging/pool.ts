import "server-only";
import { availableParallelism } from "node:os";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { getConfig } from "../config";
import { log } from "../log";
import { countJudgeTask, setJudgePool } from "../metrics";
import { slot } from "../runtime";
import type { JudgeFailure, Judged, JudgeTask } from "./tasks";
import { judgeWorkerFile } from "./worker-file";

// The judging pool (issue 47): scraped pages are written by strangers, and parsing one, running a
// user's selector on it or diffing two versions can take minutes on a page built for it. Here that
// work runs on worker threads (piscina), at most TALLY_JUDGE_THREADS at once; each task has
// TALLY_JUDGE_BUDGET_MS from the moment its thread starts it (time spent queued does not count) and
// a heap of TALLY_JUDGE_MEMORY_MB. A task past either is stopped (its thread terminated and replaced)
// and answered as a failure, which the caller turns into a `suspect` page: nothing waits on it.
// Tasks queue here, not in piscina, so a queued task's budget is not running and the metrics say
// exactly how many wait and how many run.

type Pending = {
  task: JudgeTask;
  resolve: (j: Judged<unknown>) => void;
};

export type PoolStats = { threads: number; busy: number; queued: number; overruns: number };

export class JudgePool {
  private readonly queue: Pending[] = [];
  private busy = 0;
  private overruns = 0;
  private piscina: Promise<Piscina> | null = null;

  constructor(
    readonly threads: number,
    readonly budgetMs: number,
    readonly memoryMb: number,
  ) {}

  stats(): PoolStats {
    return { threads: this.threads, busy: this.busy, queued: this.queue.length, overruns: this.overruns };
  }

  run(task: JudgeTask): Promise<Judged<unknown>> {
    return new Promise((resolve) => {
      this.queue.push({ task, resolve });
      this.pump();
    });
  }

  /** Closes once every task it holds (queued or running) has its answer. */
  async drainAndClose(): Promise<void> {
    while (this.busy > 0 || this.queue.length > 0) await new Promise((r) => setTimeout(r, 50));
    await this.close();
  }

  async close(): Promise<void> {
    const p = this.piscina;
    this.piscina = null;
    if (p) await (await p).destroy();
  }

  private start(): Promise<Piscina> {
    this.piscina ??= judgeWorkerFile().then(
      (filename) =>
        new Piscina({
          filename,
          minThreads: this.threads,
          maxThreads: this.threads,
          concurrentTasksPerWorker: 1,
          idleTimeout: 60_000,
          resourceLimits: { maxOldGenerationSizeMb: this.memoryMb },
        }),
    );
    // A start that failed (no worker code) is tried again by the next task, not remembered.
    this.piscina.catch(() => (this.piscina = null));
    return this.piscina;
  }

  private publish() {
    setJudgePool(this.queue.length, this.busy, this.threads);
  }

  private pump() {
    while (this.busy < this.threads && this.queue.length > 0) {
      const next = this.queue.shift()!;
      this.busy += 1;
      void this.dispatch(next).finally(() => this.pump());
    }
    this.publish();
  }

  private async dispatch({ task, resolve }: Pending): Promise<void> {
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    // The budget runs from the moment the thread takes the task (a thread being replaced after an
    // overrun, or loading its code, does not count against the next page).
    port1.once("message", () => {
      started = performance.now();
      timer = setTimeout(() => abort.abort("budget"), this.budgetMs);
    });
    port1.unref();
    const finish = (j: Judged<unknown>) => {
      clearTimeout(timer);
      // The thread is free before the caller hears (its stats then say so).
      this.busy -= 1;
      port1.close();
      countJudgeTask(task.kind, j.ms, j.ok ? null : j.failure);
      if (!j.ok) {
        this.overruns += 1;
        log.warn("judging stopped without an answer", { kind: task.kind, failure: j.failure, ms: Math.round(j.ms) });
      }
      resolve(j);
    };
    try {
      const pool = await this.start();
      const value = await pool.run({ task, port: port2 }, { signal: abort.signal, transferList: [port2] });
      finish({ ok: true, value, ms: performance.now() - started });
    } catch (err) {
      const ms = performance.now() - started;
      const failure: JudgeFailure = abort.signal.aborted
        ? "budget_exceeded"
        : (err as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? "memory_exceeded"
          : "failed";
      const message =
        failure === "budget_exceeded"
          ? `stopped after ${Math.round(ms).toLocaleString("en-US")} ms (budget ${this.budgetMs.toLocaleString("en-US")} ms)`
          : failure === "memory_exceeded"
            ? `stopped after ${Math.round(ms).toLocaleString("en-US")} ms: it needed more than ${this.memoryMb} MB`
            : err instanceof Error
              ? err.message
              : String(err);
      finish({ ok: false, failure, ms, message });
    }
  }
}

const current = slot<JudgePool>("judgePool");

/** This process's pool, made on first use from the configuration, and made again when the
 *  configuration it was made from has changed (tests load a new one; a pool with another budget
 *  would judge by the old one). The old pool finishes the tasks it holds, then its threads end. */
export function judgePool(): JudgePool {
  const c = getConfig();
  const threads = c.TALLY_JUDGE_THREADS ?? Math.max(1, availableParallelism() - 1);
  const pool = current.get();
  if (
    pool &&
    pool.threads === threads &&
    pool.budgetMs === c.TALLY_JUDGE_BUDGET_MS &&
    pool.memoryMb === c.TALLY_JUDGE_MEMORY_MB
  )
    return pool;
  const next = new JudgePool(threads, c.TALLY_JUDGE_BUDGET_MS, c.TALLY_JUDGE_MEMORY_MB);
  current.set(next);
  if (pool) void pool.drainAndClose();
  return next;
}

/** Stops this process's pool (its threads end); the next task makes a new one from the configuration. */
export async function closeJudgePool(): Promise<void> {
  const pool = current.get();
  current.clear();
  await pool?.close();
}
