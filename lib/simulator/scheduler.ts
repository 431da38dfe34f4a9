import "server-only";

/**
 * Every timer the simulator starts goes through here, so reset() and close() can stop them all.
 * Timers are unref'd: an embedded simulator must never keep its host process alive.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly log: (msg: string) => void) {}

  after(ms: number, fn: () => void | Promise<void>): NodeJS.Timeout {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        try {
          const out = fn();
          if (out instanceof Promise) out.catch((err: unknown) => this.log(`simulator task failed: ${String(err)}`));
        } catch (err) {
          this.log(`simulator task failed: ${String(err)}`);
        }
      },
      Math.max(0, ms),
    );
    timer.unref();
    this.timers.add(timer);
    return timer;
  }

  /** A promise that resolves after `ms` unless the scheduler is cleared first (then it never does). */
  delay(ms: number): Promise<void> {
    return new Promise((resolve) => this.after(ms, resolve));
  }

  cancel(timer: NodeJS.Timeout): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }

  clearAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
