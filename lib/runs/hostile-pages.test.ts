// Hostile pages in a run (issue 47), end to end with the real simulator over HTTP (its hostilePageRate
// knob), the real queue and worker in this process, on SQLite and PostgreSQL: every page is judged on
// the judging pool's threads, so while a page built to explode `h2~p` runs past its budget, this
// thread's timers keep ticking; the page is `suspect` with the check `budget_exceeded` and how long it
// ran, keeps no body, and climbs the ladder like any suspect page; every URL ends, none stored as good
// after an overrun.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { closeJudgePool } from "@/lib/judging";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { createRegistry, enqueue } from "@/lib/queue";
import { baseConfig } from "@/lib/simulator/config";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import { createRun, getRun, listRunUrls, parseValues, RUN_SUBMIT, type RunView } from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const registry = createRegistry([processJobKind({ resultPageSize: 5 }), runSubmitKind()]);

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_JUDGE_THREADS: "2",
    TALLY_JUDGE_BUDGET_MS: "1500",
  });
}, 30_000);
afterAll(async () => {
  await closeJudgePool();
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});
beforeEach(() => {
  sim.sim.setConfig({ ...baseConfig, seed: 5, jobDurationMs: [10, 40], hostileShare: 0, hostilePageRate: 1 });
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 30_000, owner: "test" }).drain();

async function runToEnd(runId: string): Promise<RunView> {
  for (let round = 0; round < 40; round++) {
    await drain();
    const run = await getRun(runId);
    if (run.state === "completed" || run.state === "cancelled") return run;
    const open = await db().runChunk.findMany({ where: { runId, state: "submitted" }, select: { jobId: true } });
    for (const c of open) {
      if (!c.jobId) continue;
      for (let i = 0; i < 400 && !isTerminal((await sim.client().getJob("batch", c.jobId)).status); i++)
        await new Promise((r) => setTimeout(r, 10));
      await enqueue(db(), processJobItem({ jobId: c.jobId, kind: "batch", source: "webhook" }));
    }
    await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
  }
  throw new Error(`run ${runId} did not finish`);
}

type Served = { kind: string; style?: string };
const served = async (url: string) =>
  (
    (await fetch(`${sim.url}/_sim/content?url=${encodeURIComponent(url)}`).then((r) => r.json())) as {
      wouldServe: Record<string, Served>;
    }
  ).wouldServe.plain;

describe("hostile pages in a run", () => {
  it("judges h2~p on 40,000 siblings as suspect/budget_exceeded while this thread keeps ticking; every URL ends", async () => {
    const urls = Array.from({ length: 24 }, (_, i) => `https://strangers${i % 3}.example/page/${i}`);
    const styles = await Promise.all(urls.map(served));
    expect(styles.every((s) => s.kind === "hostile")).toBe(true);
    const siblingRuns = urls.filter((_, i) => styles[i].style === "sibling_run");
    expect(siblingRuns.length).toBeGreaterThan(0);

    let ticks = 0;
    let longestGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks++;
    }, 20);
    let run: RunView;
    try {
      const created = await createRun(
        parseValues(urls),
        {
          batchSize: 8,
          formats: ["html", "markdown"],
          checks: { minTextLength: 1, mustContain: [], mustNotContain: [{ selector: "h2~p" }], detectBlocks: true },
          escalation: [{}, { renderJs: true }],
        },
        "test",
      );
      run = await runToEnd(created.id);
    } finally {
      clearInterval(timer);
    }
    expect(run.state).toBe("completed");
    expect(run.counts.stored + run.counts.failed).toBe(urls.length);
    // Each overrun took its thread 1.5 s: were it this thread, no timer would have fired for that long.
    expect(ticks).toBeGreaterThan(50);
    expect(longestGap).toBeLessThan(1_500);

    const rows = (await listRunUrls(run.id, { limit: 100 })).items;
    for (const url of siblingRuns) {
      const row = rows.find((r) => r.url === url)!;
      expect(row).toMatchObject({ state: "failed", checkName: "budget_exceeded", rungsTried: ["plain", "render_js"] });
      expect(row.checkExcerpt).toMatch(/^judging stopped after [\d,]+ ms \(budget 1,500 ms\)$/);
    }
    // No page judged past its budget kept a body; none of them is a stored result.
    const overrun = await db().result.findMany({ where: { checkName: "budget_exceeded" } });
    expect(overrun.length).toBeGreaterThanOrEqual(siblingRuns.length * 2);
    for (const r of overrun) {
      expect(r.checkVerdict).toBe("suspect");
      expect(r.markdown).toBeNull();
      expect(r.html).toBeNull();
      expect(r.markdownKey).toBeNull();
      expect(r.htmlKey).toBeNull();
    }
  }, 180_000);
});
