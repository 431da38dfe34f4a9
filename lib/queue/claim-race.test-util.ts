// A separate worker process for the claim race test. It says "ready" once connected, waits for the
// queue to fill (so every racer starts together, however slowly it booted), claims until the queue is
// empty, acks each item, and prints the ids it got. DATABASE_URL points at the shared test database.
import { db, dbReady, disconnectAll } from "../db";
import { ack, claim } from "./lease";

async function main() {
  await dbReady();
  process.stdout.write("ready\n");
  const start = Date.now();
  while ((await db().queueItem.count({ where: { state: "ready" } })) === 0) {
    if (Date.now() - start > 30_000) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const owner = `racer-${process.pid}`;
  const got: number[] = [];
  for (;;) {
    const items = await claim({ owner, limit: 3, leaseMs: 60_000 });
    if (items.length === 0) break;
    for (const item of items) {
      got.push(item.id);
      await ack(item);
    }
  }
  await disconnectAll();
  process.stdout.write(`${JSON.stringify(got)}\n`);
}

void main();
