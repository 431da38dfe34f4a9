// A child process for test/shared-breaker.test.ts: the shared platform client (as servers and workers
// use it) calling the simulator from HAMMER_CONCURRENCY loops for HAMMER_MS, starting when the parent
// writes a line to stdin. A call refused because the platform counts as down waits as a queue item
// would (its platformDownMs, at most 200 ms here, so a resumption is seen at once). Prints one JSON
// line: when each call succeeded, and how many were refused or failed.
import { once } from "node:events";
import { disconnectAll } from "@/lib/db";
import { PlatformError } from "@/lib/platform/errors";
import { flushApiCalls, getPlatformClient } from "@/lib/platform/shared-client";

const ms = Number(process.env.HAMMER_MS ?? 10_000);
const concurrency = Number(process.env.HAMMER_CONCURRENCY ?? 4);
const sleep = (n: number) => new Promise((r) => setTimeout(r, n));

async function main() {
  const client = getPlatformClient();
  console.log("ready");
  await once(process.stdin, "data");
  const end = Date.now() + ms;
  const seen = { okAt: [] as number[], refused: 0, failed: 0, errors: [] as string[] };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        try {
          await client.listExtractJobs({ page_size: 1 }).next();
          seen.okAt.push(Date.now());
        } catch (err) {
          if (!(err instanceof PlatformError)) {
            if (seen.errors.length < 3) seen.errors.push(String(err));
            await sleep(50);
          } else if (err.platformDownMs !== undefined) {
            seen.refused++;
            await sleep(Math.min(err.platformDownMs, 200));
          } else {
            seen.failed++;
            await sleep(20);
          }
        }
      }
    }),
  );
  await flushApiCalls().catch(() => undefined);
  console.log(JSON.stringify(seen));
  await disconnectAll();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
