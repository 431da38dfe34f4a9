// Drain before fill: within one process, a result fetch (purpose "worker refetch" or "result pages")
// is not queued behind the submits already waiting for the shared rate budget. Real simulator over
// HTTP, the real budget on this file's own database (SQLite, or PostgreSQL with TALLY_TEST_STORE).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withPurpose } from "@/lib/platform/purpose";
import { SharedBudget } from "@/lib/platform/shared-budget";
import { startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";

const RPS = 5;
const SUBMITS = 40; // eight seconds of budget
const FETCHES = 5;

let testDb: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;

beforeAll(async () => {
  testDb = await createTestDb();
  sim = await startSim({ config: { jobDurationMs: [0, 0] } });
});
afterAll(async () => {
  await sim?.close();
  await testDb?.cleanup();
});

/**
 * SUBMITS submits queue at once; then every 800 ms a fetch of a settled job arrives under `purpose`.
 * For each fetch: how many submits finished between its arrival and its answer.
 */
async function overtaken(key: string, purpose: "worker refetch" | "result pages") {
  const client = sim.client({ limiter: new SharedBudget({ key, requestsPerSecond: RPS }) });
  const { job_id } = await client.submitExtract({ url: "https://example.com/settled" });
  let submitted = 0;
  const submits = Array.from({ length: SUBMITS }, (_, i) =>
    withPurpose("submit", () => client.submitExtract({ url: `https://example.com/${key}/${i}` })).then(
      () => submitted++,
    ),
  );
  const passedBy: number[] = [];
  for (let f = 0; f < FETCHES; f++) {
    await new Promise((r) => setTimeout(r, 800));
    const before = submitted;
    const job = await withPurpose(purpose, () => client.getExtractJob(job_id));
    expect(job.status).toBe("completed");
    passedBy.push(submitted - before);
  }
  await Promise.all(submits);
  return passedBy;
}

describe("the shared budget serves result fetches before queued submits", () => {
  // Without the priority a fetch draws its place among the ~30 waiting submits (the budget's waiters
  // are not served in order): some fetches would see 10 or 20 submits go first.
  it("a worker's refetch is passed only by the submits already holding leased slots", { timeout: 60_000 }, async () => {
    const passedBy = await overtaken("priority refetch", "worker refetch");
    console.log(`submits that went before each refetch: ${passedBy.join(", ")}`);
    // A lease is at most half a horizon (2 slots at 5 rps) and a busy process leases the next while
    // it uses one: a handful at most.
    for (const n of passedBy) expect(n).toBeLessThanOrEqual(6);
  });

  it("result pages count as urgent too", { timeout: 60_000 }, async () => {
    const passedBy = await overtaken("priority pages", "result pages");
    console.log(`submits that went before each result page: ${passedBy.join(", ")}`);
    for (const n of passedBy) expect(n).toBeLessThanOrEqual(6);
  });
});
