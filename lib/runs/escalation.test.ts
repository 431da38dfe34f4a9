// Content checks and the escalation ladder in runs (issue 39), end to end with the real simulator over
// HTTP, the real queue and worker, on SQLite (and PostgreSQL through vitest.postgres.config.mts): a block
// page, an empty shell or a soft 404 never counts as stored and never keeps its body; each suspect URL goes
// up the ladder in order (plain → render_js → render_js + wait_config → residential), counted once, and
// ends stored or failed with blocked / content_check_failed; the platform's BLOCKED climbs too; the token
// cap is never passed (also with two submitters racing); bad definitions answer 400 naming the field.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { TallyError } from "@/lib/errors";
import { getJobDetail } from "@/lib/jobs/detail";
import { inlineResults } from "@/lib/outbound/event-body";
import { readStoredResults } from "@/lib/outbound/sink-send";
import { processJobItem } from "@/lib/jobs/process-job";
import { exportRunCsv, exportRunJsonl } from "@/lib/results/run-export";
import { metrics } from "@/lib/metrics/registry";
import { flushApiCalls, resetPlatformClients } from "@/lib/platform/shared-client";
import { isTerminal } from "@/lib/platform";
import { createRegistry, enqueue, type ClaimedItem } from "@/lib/queue";
import { baseConfig } from "@/lib/simulator/config";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { processJobKind, runSubmitKind } from "@/lib/worker/registry";
import { createWorker } from "@/lib/worker/worker";
import { createTestDb, type TestDb } from "@/test/db";
import { createRun, getRun, listRunUrls, parseValues, readRunRequest, RUN_SUBMIT, type RunView } from "./index";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
const registry = createRegistry([processJobKind({ resultPageSize: 50 }), runSubmitKind()]);

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_ITEM_RETRY_MAX: "2",
  });
}, 30_000);
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});
beforeEach(() => {
  sim.sim.setConfig({ ...baseConfig, seed: 11, jobDurationMs: [10, 40], hostileShare: 0 });
});

const drain = () => createWorker({ registry, concurrency: 2, leaseMs: 10_000, owner: "test" }).drain();

function expectAddsUp(r: RunView) {
  const c = r.counts;
  expect(c.pending + c.submitted + c.stored + c.retrying + c.suspect + c.failed).toBe(r.total);
}

async function settleOpenChunks(runId: string) {
  const open = await db().runChunk.findMany({ where: { runId, state: "submitted" }, select: { jobId: true } });
  for (const c of open) {
    if (!c.jobId) continue;
    for (let i = 0; i < 400; i++) {
      if (isTerminal((await sim.client().getJob("batch", c.jobId)).status)) break;
      await new Promise((r) => setTimeout(r, 10));
      expectAddsUp(await getRun(runId));
    }
    await enqueue(db(), processJobItem({ jobId: c.jobId, kind: "batch", source: "webhook" }));
  }
  await db().queueItem.updateMany({ where: { kind: RUN_SUBMIT, state: "ready" }, data: { availableAt: new Date() } });
}

async function runToEnd(runId: string, maxRounds = 40): Promise<RunView> {
  for (let round = 0; round < maxRounds; round++) {
    await drain();
    const run = await getRun(runId);
    expectAddsUp(run);
    if (run.state === "completed" || run.state === "cancelled") return run;
    await settleOpenChunks(runId);
  }
  throw new Error(`run ${runId} did not finish`);
}

type Served = { kind: string };
const simContent = async (url: string) =>
  (await fetch(`${sim.url}/_sim/content?url=${encodeURIComponent(url)}`).then((r) => r.json())) as {
    wouldServe: Record<string, Served>;
  };

async function allUrls(runId: string) {
  const out = [];
  let cursor: string | undefined;
  do {
    const page = await listRunUrls(runId, { limit: 1000, cursor });
    out.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return out;
}

const hostsUrls = (hosts: number, per: number, tag: string) =>
  Array.from({ length: hosts * per }, (_, i) => `https://${tag}${i % hosts}.example/p/${i}`);

describe("content checks and the ladder", () => {
  it("climbs the ladder in order: shells stored at render_js, residential-unblocked hosts at rung 3, the rest failed with the right reason; no bad body kept", async () => {
    sim.sim.setConfig({
      blockPageRate: 0.3,
      residentialUnblockShare: 0.5,
      emptyShellRate: 0.15,
      softNotFoundRate: 0.05,
    });
    const urls = hostsUrls(30, 4, "lad");
    const created = await createRun(parseValues(urls), { batchSize: 50 }, "test");
    const run = await runToEnd(created.id);
    expect(run.state).toBe("completed");
    expect(run.counts.suspect).toBe(0);

    const rows = await allUrls(run.id);
    let recoverable = 0;
    let bad = 0;
    for (const u of rows) {
      const would = (await simContent(u.url)).wouldServe;
      const plainBad = would.plain.kind !== "good";
      if (plainBad) bad++;
      // What each rung would get, in the ladder's order: the first good one is where the URL must be stored.
      const ladder = [would.plain, would.render_js, would.render_js_wait, would.residential];
      const firstGood = ladder.findIndex((s) => s.kind === "good");
      if (firstGood > 0) recoverable++;
      if (firstGood >= 0) {
        expect(u, u.url).toMatchObject({ state: "stored", rung: firstGood });
        expect(u.rungsTried).toEqual(
          ["plain", "render_js", "render_js + wait_config(networkidle)", "proxy residential"].slice(0, firstGood + 1),
        );
        if (firstGood > 0) expect(u.checkName, u.url).toMatch(/^detectBlocks|^minTextLength/);
      } else {
        expect(u.state, u.url).toBe("failed");
        expect(u.rung).toBe(3);
        expect(u.rungsTried).toHaveLength(4);
        // The last rung's failure is the reason: a block page there is `blocked`, anything else a failed check.
        // (an empty shell is the detector's `blocked` too).
        const last = would.residential.kind;
        expect(u.errorCode, u.url).toBe(
          last === "block" || last === "empty_shell" ? "blocked" : "content_check_failed",
        );
        expect(u.checkExcerpt?.length ?? 0).toBeLessThanOrEqual(200);
      }
      expect(u.tokensCharged).toBe(u.rungsTried.length); // one token a page, each rung charged
    }
    expect(bad).toBeGreaterThan(20);
    expect(recoverable).toBeGreaterThan(10);

    // No judged row keeps a body; every stored URL's result has one.
    const chunks = await db().runChunk.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });
    const jobIds = chunks.map((c) => c.jobId ?? "");
    const judged = await db().result.findMany({
      where: { jobId: { in: jobIds }, checkVerdict: { not: "ok" } },
      select: { markdown: true, html: true, checkVerdict: true },
    });
    expect(judged.length).toBeGreaterThan(0);
    for (const r of judged) expect(r).toMatchObject({ markdown: null, html: null });
    // A job's page says why a row has no body: withheld by a content check, with the check and excerpt.
    const detail = await getJobDetail(jobIds[0] ?? "");
    const withheld = detail.results.shown.find((r) => r.checkVerdict && r.checkVerdict !== "ok");
    expect(withheld).toMatchObject({
      markdown: null,
      html: null,
      checkName: expect.stringMatching(/^detectBlocks|^minTextLength/),
    });
    expect(withheld?.checkExcerpt?.length ?? 0).toBeLessThanOrEqual(200);
    // Sinks and event bodies never get a withheld row.
    const sent =
      (await readStoredResults([{ eventType: "job.stored", jobId: jobIds[0] ?? "" }])).byJob.get(jobIds[0] ?? "") ?? [];
    const kept = await db().result.count({
      where: { jobId: jobIds[0], OR: [{ checkVerdict: null }, { checkVerdict: "ok" }] },
    });
    expect(sent.length).toBe(kept);
    expect(sent.length).toBeLessThan(await db().result.count({ where: { jobId: jobIds[0] } }));
    expect((await inlineResults(jobIds[0] ?? "", 50_000_000))?.length).toBe(kept);
    // Chunks go up one rung at a time and carry their rung's options on the platform request.
    expect(chunks.map((c) => c.rung)).toEqual([...chunks.map((c) => c.rung)].sort((a, b) => a - b));
    const jobs = await db().job.findMany({ where: { id: { in: jobIds } }, select: { id: true, request: true } });
    const reqOf = new Map(jobs.map((j) => [j.id, JSON.parse(j.request ?? "{}") as Record<string, unknown>]));
    for (const c of chunks) {
      const req = reqOf.get(c.jobId ?? "") ?? {};
      if (c.rung === 0) expect(req).toMatchObject({ render_js: false });
      if (c.rung === 1) expect(req).toMatchObject({ render_js: true });
      if (c.rung === 2) expect(req).toMatchObject({ render_js: true, wait_config: { wait_until: "networkidle" } });
      if (c.rung === 3) expect(req).toMatchObject({ proxy: { type: "residential" } });
    }
    // Tokens: the run's charge is the sum over its URLs and over its chunks; nothing left reserved.
    const sum = rows.reduce((s, u) => s + u.tokensCharged, 0);
    expect(run.tokens).toMatchObject({ charged: sum, reserved: 0 });
    expect(chunks.reduce((s, c) => s + c.tokensCharged, 0)).toBe(sum);
    // The run's page: batches, URLs and tokens per rung, named.
    expect(run.rungs?.map((r) => r.name)).toEqual([
      "plain",
      "render_js",
      "render_js + wait_config(networkidle)",
      "proxy residential",
    ]);
    expect(run.rungs?.reduce((s, r) => s + r.tokens, 0)).toBe(sum);
    expect(run.rungs?.[0]).toMatchObject({ urls: urls.length, tokens: urls.length });
    // The Prometheus counters: tokens per rung and verdicts, counted as pages were judged.
    const text = await metrics().registry.metrics();
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? NaN);
    for (const r of run.rungs ?? [])
      expect(
        value(new RegExp(`^tally_run_tokens_total\\{[^}]*rung="${r.rung}"[^}]*\\} (\\d+)$`, "m")),
      ).toBeGreaterThanOrEqual(r.tokens);
    expect(value(/^tally_content_check_verdicts_total\{[^}]*verdict="blocked"[^}]*\} (\d+)$/m)).toBeGreaterThan(0);
  });

  it("a page the platform reports BLOCKED climbs too, and residential gets it; with one rung it fails as blocked", async () => {
    const urls = ["https://shop.example/ok/1", "https://shop.example/item-blocked/2"];
    const run = await runToEnd((await createRun(parseValues(urls), {}, "test")).id);
    const rows = await allUrls(run.id);
    expect(rows[0]).toMatchObject({ state: "stored", rung: 0, rungsTried: ["plain"] });
    // A run that says nothing: the default checks and the default ladder, on its page.
    const view = await getRun(run.id);
    expect(view.checks).toEqual({ minTextLength: 1, mustContain: [], mustNotContain: [], detectBlocks: true });
    expect(view.ladder?.length).toBeGreaterThan(1);
    expect(view.ladder?.[0]).toEqual({ rung: 0, name: "plain" });
    expect(rows[1]).toMatchObject({ state: "stored", rung: 3, checkName: "platform:BLOCKED" });
    // The run's exports carry the spend and the check, per URL, beside what they held before.
    const csv = (await new Response((await exportRunCsv(run.id)).body).text()).trim().split("\r\n");
    expect(csv[0]).toMatch(/,bodyError,rung,rungsTried,tokensCharged,checkName,checkExcerpt$/);
    expect(csv[2]).toContain(
      `,3,plain; render_js; render_js + wait_config(networkidle); proxy residential,${rows[1].tokensCharged},platform:BLOCKED,`,
    );
    const jsonl = (await new Response((await exportRunJsonl(run.id)).body).text()).trim().split("\n");
    expect(JSON.parse(jsonl[0])).toMatchObject({ rung: 0, rungsTried: ["plain"], tokensCharged: 1, check: null });
    expect(JSON.parse(jsonl[1])).toMatchObject({
      state: "stored",
      rung: 3,
      rungsTried: rows[1].rungsTried,
      tokensCharged: rows[1].tokensCharged,
      check: { name: "platform:BLOCKED" },
    });
    const one = await runToEnd((await createRun(parseValues(urls), { escalation: [{}] }, "test")).id);
    const failed = (await allUrls(one.id))[1];
    expect(failed).toMatchObject({ state: "failed", errorCode: "blocked", rungsTried: ["plain"] });
  });

  it("custom checks: mustContain a selector missing from every page makes each URL fail content_check_failed after its rungs", async () => {
    const urls = ["https://shop.example/sel/1", "https://shop.example/sel/2"];
    const run = await runToEnd(
      (
        await createRun(
          parseValues(urls),
          {
            formats: ["html"],
            checks: {
              minTextLength: 1,
              mustContain: [{ selector: "div.price" }],
              mustNotContain: [],
              detectBlocks: true,
            },
            escalation: [{}, { renderJs: true }],
          },
          "test",
        )
      ).id,
    );
    for (const u of await allUrls(run.id))
      expect(u).toMatchObject({
        state: "failed",
        errorCode: "content_check_failed",
        checkName: "mustContain[0]",
        rungsTried: ["plain", "render_js"],
      });
    // The run's page shows what its pages were judged by: the checks as given, its two rungs.
    const view = await getRun(run.id);
    expect(view.checks).toEqual({
      minTextLength: 1,
      mustContain: [{ selector: "div.price" }],
      mustNotContain: [],
      detectBlocks: true,
    });
    expect(view.ladder).toEqual([
      { rung: 0, name: "plain" },
      { rung: 1, name: "render_js" },
    ]);
  });

  it("never submits past maxTokens: the run stops, says why, and its counts add up", async () => {
    sim.sim.setConfig({ blockPageRate: 1, residentialUnblockShare: 0 });
    const urls = hostsUrls(10, 2, "cap");
    const created = await createRun(parseValues(urls), { batchSize: 7, maxTokens: 30 }, "test");
    const run = await runToEnd(created.id);
    expect(run.state).toBe("completed");
    expect(run.tokens.charged).toBeLessThanOrEqual(30);
    expect(run.tokens.charged).toBe(30);
    expect(run.tokens.reserved).toBe(0);
    expect(run.tokens.capReason).toMatch(/maxTokens 30 reached/);
    const rows = await allUrls(run.id);
    expect(rows.filter((u) => u.errorCode === "token_cap").length).toBeGreaterThan(0);
    const chunks = await db().runChunk.findMany({ where: { runId: run.id } });
    expect(chunks.reduce((s, c) => s + c.size, 0)).toBe(30);
  });

  it("two submitters racing for the last tokens never reserve past the cap", async () => {
    sim.sim.setConfig({ blockPageRate: 1, residentialUnblockShare: 0 });
    const created = await createRun(parseValues(hostsUrls(10, 5, "race")), { batchSize: 10, maxTokens: 55 }, "test");
    const handle = runSubmitKind().handle as (
      p: { runId: string },
      ctx: { item: ClaimedItem; signal: AbortSignal },
    ) => Promise<unknown>;
    const ctx = { item: {} as ClaimedItem, signal: new AbortController().signal };
    for (let round = 0; round < 20; round++) {
      await Promise.all([handle({ runId: created.id }, ctx), handle({ runId: created.id }, ctx), drain()]);
      const r = await db().run.findUniqueOrThrow({ where: { id: created.id } });
      const chunks = await db().runChunk.findMany({ where: { runId: created.id } });
      // At every moment: charged + reserved within the cap, and the chunks sent never more URLs than it allows.
      expect(r.tokensCharged + r.tokensReserved).toBeLessThanOrEqual(55);
      expect(chunks.reduce((s, c) => s + c.size, 0)).toBeLessThanOrEqual(55);
      if (r.state === "completed") break;
      await settleOpenChunks(created.id);
    }
    const run = await getRun(created.id);
    expectAddsUp(run);
    expect(run.tokens.charged).toBeLessThanOrEqual(55);
  });

  it("refuses a run whose estimate passes its cap with a 400 naming the estimate, and bad definitions naming the field; nothing saved", async () => {
    const before = await db().run.count();
    const body = (extra: Record<string, unknown>) =>
      new Request("http://tally.test/api/runs", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ urls: ["https://a.example/1", "https://a.example/2", "https://a.example/3"], ...extra }),
      });
    const refusal = async (extra: Record<string, unknown>) => {
      try {
        const { list, opts } = await readRunRequest(body(extra));
        await createRun(list, opts, "test");
      } catch (e) {
        expect(e).toBeInstanceOf(TallyError);
        return e as TallyError;
      }
      throw new Error(`accepted ${JSON.stringify(extra)}`);
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ checks: { mustContain: [{ selector: "div[" }] } }, /checks\.mustContain\.0\.selector/],
      [{ checks: { mustNotContain: [{ text: "   " }] } }, /checks\.mustNotContain\.0\.text: must not be empty/],
      [{ checks: { minTextLength: -1 } }, /checks\.minTextLength/],
      [{ maxTokens: -5 }, /maxTokens/],
      [{ escalation: [] }, /escalation/],
      [{ escalation: [{ proxyType: "moon" }] }, /escalation\.0\.proxyType/],
      [{ maxTokens: 2 }, /maxTokens: the run's estimate is 3 tokens/],
    ];
    for (const [extra, why] of cases) {
      const e = await refusal(extra);
      expect(e.code, JSON.stringify(extra)).toBe("bad_request");
      expect(e.message, JSON.stringify(extra)).toMatch(why);
    }
    // The text/plain form (the /runs/new page) takes the cap in the query.
    const text = new Request("http://tally.test/api/runs?maxTokens=2", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "https://a.example/1\nhttps://a.example/2\nhttps://a.example/3",
    });
    const fromText = await readRunRequest(text);
    await expect(createRun(fromText.list, fromText.opts, "test")).rejects.toThrow(/estimate is 3 tokens/);
    await expect(
      readRunRequest(
        new Request("http://tally.test/api/runs?maxTokens=-4", {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: "https://a.example/1",
        }),
      ),
    ).rejects.toThrow(/maxTokens/);
    // The page's checks and ladder ride in the query as JSON text, checked as the JSON body's are.
    const textWith = (query: Record<string, string>) =>
      readRunRequest(
        new Request(`http://tally.test/api/runs?${new URLSearchParams(query)}`, {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: "https://a.example/1",
        }),
      );
    for (const [query, why] of [
      [{ checks: "{nope" }, /checks: not JSON/],
      [{ checks: JSON.stringify({ mustContain: [{ selector: "div[" }] }) }, /checks\.mustContain\.0\.selector/],
      [{ escalation: "[" }, /escalation: not JSON/],
      [{ escalation: JSON.stringify([{ proxyType: "moon" }]) }, /escalation\.0\.proxyType/],
      [{ escalation: "[]" }, /escalation/],
    ] as const)
      await expect(textWith(query), JSON.stringify(query)).rejects.toThrow(why);
    expect(await db().run.count()).toBe(before);
    const fromQuery = await textWith({
      checks: JSON.stringify({ mustNotContain: [{ selector: "form#captcha" }], detectBlocks: false }),
      escalation: JSON.stringify([{}, { renderJs: true }]),
    });
    const viaText = await createRun(fromQuery.list, fromQuery.opts, "test");
    const textRow = await db().run.findUniqueOrThrow({ where: { id: viaText.id } });
    expect(JSON.parse(textRow.checks ?? "{}")).toMatchObject({
      mustNotContain: [{ selector: "form#captcha" }],
      detectBlocks: false,
    });
    expect(JSON.parse(textRow.escalation ?? "[]")).toEqual([{}, { renderJs: true }]);
    // A good definition is stored on the run, defaults filled in.
    const { list, opts } = await readRunRequest(body({ checks: { mustContain: [{ text: "price" }] }, maxTokens: 3 }));
    const ok = await createRun(list, opts, "test");
    const row = await db().run.findUniqueOrThrow({ where: { id: ok.id } });
    expect(JSON.parse(row.checks ?? "{}")).toEqual({
      minTextLength: 1,
      mustContain: [{ text: "price" }],
      mustNotContain: [],
      detectBlocks: true,
    });
    expect(JSON.parse(row.escalation ?? "[]")).toHaveLength(4);
    expect(row.maxTokens).toBe(3);
  });
});
