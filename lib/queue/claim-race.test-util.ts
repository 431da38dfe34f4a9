// A separate worker process for the claim race test: claims until the queue is empty, acks each
// item, and prints the ids it got. Run with tsx; DATABASE_URL points at the shared test database.
import { dbReady, disconnectAll } from "../db";
import { ack, claim } from "./lease";

async function main() {
  await dbReady();
  const owner = `racer-${process.pid}`;
  const got: number[] = [];
  let empty = 0;
  while (empty < 3) {
    const items = await claim({ owner, limit: 3, leaseMs: 60_000 });
    if (items.length === 0) {
      empty++;
      await new Promise((r) => setTimeout(r, 5));
      continue;
    }
    empty = 0;
    for (const item of items) {
      got.push(item.id);
      await ack(item);
    }
  }
  await disconnectAll();
  process.stdout.write(JSON.stringify(got));
}

void main();
