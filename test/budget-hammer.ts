// A child process for test/shared-budget.test.ts: the shared platform client (as servers and workers
// use it) calling the simulator from HAMMER_CONCURRENCY loops for HAMMER_MS, starting when the parent
// writes a line to stdin. Prints one JSON line with what it saw.
import { once } from "node:events";
import { disconnectAll } from "@/lib/db";
import { RateLimited } from "@/lib/platform/errors";
import { getPlatformClient } from "@/lib/platform/shared-client";

const ms = Number(process.env.HAMMER_MS ?? 3000);
const concurrency = Number(process.env.HAMMER_CONCURRENCY ?? 4);

async function main() {
  const client = getPlatformClient();
  console.log("ready");
  await once(process.stdin, "data");
  const end = Date.now() + ms;
  const seen = { ok: 0, rateLimited: 0, failed: 0, errors: [] as string[] };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        try {
          await client.listExtractJobs({ page_size: 1 }).next();
          seen.ok++;
        } catch (err) {
          if (err instanceof RateLimited) seen.rateLimited++;
          else {
            seen.failed++;
            if (seen.errors.length < 3) seen.errors.push(String(err));
          }
        }
      }
    }),
  );
  console.log(JSON.stringify(seen));
  await disconnectAll();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
