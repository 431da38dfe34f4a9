// The runs' alert rules (issue 39), driven by real runs through the real simulator over HTTP, the real
// queue and worker, on SQLite (and PostgreSQL through vitest.postgres.config.mts): run_suspect_share fires
// when a run's pages fail their content checks for more than TALLY_ALERT_SUSPECT_PERCENT of its URLs,
// run_token_cap when a run stopped at its cap; both clear once the run is older than a day.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { isTerminal } from "@/lib/platform";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { createRegistry, enqueue } from "@/lib/queue";
import { createRun, getRun, parseValues, RUN_SUBMIT } from "@/lib/runs";
import { baseConfig } from "@/lib/simulator/config";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import type { RuleName } from "./contracts";
import { evaluateAlerts } from "./evaluate";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const registry = createRegistry([processJobKind(), runSubmitKind()]);

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_ALERT_SUSPECT_PERCENT: "30",
  });
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});

async function runToEnd(runId: string) {
  for (let round = 0; round < 40; round++) {
    await createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();
    const run = await getRun(runId);
    if (run.state === "completed") return run;
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

async function state(name: RuleName, now: Date) {
  await evaluateAlerts({ now });
  const s = await db().alertState.findUniqueOrThrow({ where: { rule: name } });
  return { firing: s.state === "firing", summary: s.summary ?? "" };
}

const urls = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `https://${tag}${i % 4}.example/p/${i}`);

describe("run alert rules", () => {
  it("run_suspect_share and run_token_cap stay quiet for a clean run, fire for a blocked or capped one, and clear after a day", async () => {
    sim.sim.setConfig({ ...baseConfig, seed: 3, jobDurationMs: [10, 30], hostileShare: 0 });
    await runToEnd((await createRun(parseValues(urls("clean", 24)), {}, "test")).id);
    const now = new Date();
    expect(await state("run_suspect_share", now)).toMatchObject({ firing: false });
    expect(await state("run_token_cap", now)).toMatchObject({ firing: false });

    sim.sim.setConfig({ blockPageRate: 1, residentialUnblockShare: 0 });
    const blocked = await runToEnd(
      (await createRun(parseValues(urls("walled", 24)), { name: "walled", escalation: [{}] }, "test")).id,
    );
    expect(blocked.counts.failed).toBe(24);
    const fired = await state("run_suspect_share", new Date());
    expect(fired.firing).toBe(true);
    expect(fired.summary).toMatch(/run walled .*24 of 24 URLs/);

    const capped = await runToEnd(
      (await createRun(parseValues(urls("capped", 24)), { name: "capped", maxTokens: 30 }, "test")).id,
    );
    expect(capped.tokens.capReason).toMatch(/maxTokens 30 reached/);
    const cap = await state("run_token_cap", new Date());
    expect(cap).toMatchObject({ firing: true, summary: expect.stringMatching(/run capped .*maxTokens 30 reached/) });

    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    expect(await state("run_suspect_share", tomorrow)).toMatchObject({ firing: false });
    expect(await state("run_token_cap", tomorrow)).toMatchObject({ firing: false });
  });
});
