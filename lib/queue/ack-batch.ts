import "server-only";
import { ackMany } from "./lease";
import type { ClaimedItem } from "./types";

// Group commit for acks. A worker finishing many short items would otherwise send one UPDATE (and, on
// PostgreSQL, one commit and WAL flush) per item. Here the first ack goes out at the next turn of the
// event loop with whatever else finished in that turn, and every ack that arrives while a statement is
// in flight waits for it and goes in the next one: no timer, no added wait when idle, bigger
// statements the busier the worker. Each ack still resolves only once its row is committed (true) or
// found taken over (false), so a caller holds the item until then, exactly as with ack().

const MAX_BATCH = 500;

type Waiting = { item: ClaimedItem; resolve: (acked: boolean) => void; reject: (err: unknown) => void };

export type AckBatch = { ack(item: ClaimedItem): Promise<boolean> };

export function createAckBatch(): AckBatch {
  const waiting: Waiting[] = [];
  let flushing = false;

  async function flush() {
    flushing = true;
    await new Promise((r) => setImmediate(r));
    while (waiting.length > 0) {
      const batch = waiting.splice(0, MAX_BATCH);
      try {
        const acked = await ackMany(batch.map((w) => w.item));
        for (const w of batch) w.resolve(acked.has(w.item.id));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    flushing = false;
  }

  return {
    ack: (item) =>
      new Promise<boolean>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!flushing) void flush();
      }),
  };
}
