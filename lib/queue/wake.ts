import "server-only";
import pg from "pg";
import { log } from "../log";
import { singleton } from "../runtime";

// Workers wake the moment an item is committed instead of on their next idle poll. In one process
// (the receiver beside the in-server worker) a committed delivery calls wakeWorkers() directly; across
// processes on PostgreSQL, every enqueue sends NOTIFY on QUEUE_CHANNEL inside its transaction (it is
// delivered at commit) and each worker process LISTENs. The idle poll stays as the safety net.

export const QUEUE_CHANNEL = "tally_queue";

type Listener = () => void;
const listeners = () => singleton("queue.wakeListeners", () => new Set<Listener>());

export function onQueueWake(fn: Listener): () => void {
  listeners().add(fn);
  return () => void listeners().delete(fn);
}

export function wakeWorkers(): void {
  for (const fn of listeners()) fn();
}

const RECONNECT_MAX_MS = 10_000;

/** LISTENs for enqueues on PostgreSQL and wakes this process's workers; reconnects after a failure. */
export function listenForEnqueues(url: string): { ready: Promise<void>; stop(): Promise<void> } {
  let client: pg.Client | null = null;
  let markReady = () => {};
  const ready = new Promise<void>((r) => (markReady = r));
  let stopped = false;
  let wait = 250;
  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: url });
    c.on("notification", () => wakeWorkers());
    c.on("error", (err) => {
      log.warn("queue listener lost its connection; reconnecting", { error: err.message });
      void c.end().catch(() => undefined);
      if (client === c) client = null;
      setTimeout(() => void connect(), wait).unref();
      wait = Math.min(wait * 2, RECONNECT_MAX_MS);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${QUEUE_CHANNEL}`);
      client = c;
      wait = 250;
      markReady();
      // Anything enqueued while we were not listening is found by this wake-up.
      wakeWorkers();
    } catch (err) {
      c.emit("error", err instanceof Error ? err : new Error(String(err)));
    }
  };
  void connect();
  return {
    ready,
    async stop() {
      stopped = true;
      await client?.end().catch(() => undefined);
    },
  };
}
