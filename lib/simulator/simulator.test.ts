import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collect } from "@/lib/platform/paginate";
import { pollJob } from "@/lib/platform/poll";
import { baseConfig } from "./config";
import { API_KEY, startSim, waitFor } from "./test-harness.test-util";

let h: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  h = await startSim();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({ ...baseConfig, seed: 42, jobDurationMs: [20, 60] });
});

const raw = (path: string, init: RequestInit = {}) =>
  fetch(h.url + path, {
    ...init,
    headers: { "X-Api-Key": API_KEY, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });
const fast = { initialDelayMs: 10, maxDelayMs: 40, deadlineMs: 5000 };

describe("HTTP surface", () => {
  it("/health needs no key; /v1 needs the key, with the flat envelope", async () => {
    expect(await (await fetch(h.url + "/health")).json()).toEqual({ status: "ok" });
    const variants: Record<string, string>[] = [{}, { "X-Api-Key": "" }, { "X-Api-Key": "other" }];
    for (const headers of variants) {
      const res = await fetch(h.url + "/v1/extract/jobs", { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        code: "UNAUTHORIZED",
        message: expect.any(String),
        correlation_id: expect.any(String),
        retryable: false,
      });
    }
  });

  it("accepts any non-empty key when started without one", async () => {
    const open = await startSim({ apiKey: undefined });
    try {
      const { createSimulator } = await import("./server");
      const anyKey = createSimulator({ mode: "test" });
      const running = await anyKey.listen(0);
      expect((await fetch(running.url + "/v1/webhooks", { headers: { "X-Api-Key": "whatever" } })).status).toBe(200);
      expect((await fetch(running.url + "/v1/webhooks")).status).toBe(401);
      await running.close();
    } finally {
      await open.close();
    }
  });

  it("answers bad JSON with 422 json_invalid, unknown paths with 404, wrong methods with 405, huge bodies with 413", async () => {
    const bad = await raw("/v1/extract", { method: "POST", body: "{not json" });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      detail: [{ loc: ["body", 0], msg: "JSON decode error", type: "json_invalid" }],
    });
    const empty = await raw("/v1/batch", { method: "POST" });
    expect((await empty.json()).detail[0]).toMatchObject({ loc: ["body"], type: "missing" });
    expect((await raw("/v1/nothing")).status).toBe(404);
    expect((await raw("/v1/extract", { method: "PUT" })).status).toBe(405);
    expect((await raw("/v1/extract", { method: "POST", body: "x".repeat(1024 * 1024 + 1) })).status).toBe(413);
  });

  it("validates list and delivery query parameters (422) and webhook ids (404 / 422)", async () => {
    for (const q of ["page=0", "page_size=101", "status=bogus", "start_date=yesterday"]) {
      const res = await raw(`/v1/extract/jobs?${q}`);
      expect(res.status, q).toBe(422);
      expect((await res.json()).detail[0].loc[0]).toBe("query");
    }
    const hook = await h.client().createWebhook({ url: "http://127.0.0.1:9/x", event_type: "extract_completed" });
    expect((await raw(`/v1/webhooks/${hook.id}/deliveries?page_size=101`)).status).toBe(422);
    expect((await raw(`/v1/webhooks/${hook.id}/deliveries?status=lost`)).status).toBe(422);
    expect((await raw(`/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries`)).status).toBe(404);
    expect((await raw(`/v1/webhooks/nope`)).status).toBe(422);
  });

  it("a past-the-end page is empty, with page_count", async () => {
    await h.client().submitExtract({ url: "https://example.com/one" });
    const body = await (await raw("/v1/extract/jobs?page=5&page_size=1")).json();
    expect(body).toEqual({ jobs: [], page: 5, page_size: 1, page_count: 1 });
  });
});

describe("jobs", () => {
  it("failed jobs carry the job error object; failures split by retryableShare", async () => {
    h.sim.setConfig({ failureRate: 1, retryableShare: 0 });
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/f" });
    const job = await pollJob(c, "extract", job_id, fast);
    expect(job.status).toBe("failed");
    expect(job.error).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      retryable: false,
      details: { simulated: "true" },
    });
    expect(job.raw).toMatchObject({ data: null, tokens_charged: 0 });
  });

  it("sim-fail-retryable fails once; the identical resubmission succeeds and is linked in the state", async () => {
    const c = h.client();
    const req = { url: "https://example.com/sim-fail-retryable", formats: ["markdown" as const] };
    const first = await c.submitExtract(req);
    expect((await pollJob(c, "extract", first.job_id, fast)).error?.retryable).toBe(true);
    const second = await c.submitExtract(req);
    expect((await pollJob(c, "extract", second.job_id, fast)).status).toBe("completed");
    expect(h.sim.state().perJob[second.job_id]).toMatchObject({ resubmittedFrom: first.job_id });
    const fatal = await c.submitBatch({ urls: ["https://example.com/sim-fail"] });
    expect((await pollJob(c, "batch", fatal.job_id, fast)).error?.retryable).toBe(false);
  });

  it("moves queued → processing → completed", async () => {
    h.sim.setConfig({ jobDurationMs: [300, 300] });
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/stages" });
    const seen = new Set<string>();
    await waitFor("completed", async () => {
      const s = (await c.getExtractJob(job_id)).status;
      seen.add(s);
      return s === "completed";
    });
    expect([...seen]).toEqual(["queued", "processing", "completed"]);
  });

  it("forgets the oldest settled jobs beyond retainJobs (a long demo stays bounded)", async () => {
    h.sim.setConfig({ retainJobs: 10 });
    const c = h.client();
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await c.submitExtract({ url: `https://example.com/r${i}` })).job_id);
    await waitFor("settled", () => {
      const { queued, processing } = h.sim.state().jobs.byStatus;
      return queued + processing === 0;
    });
    const last = await c.submitExtract({ url: "https://example.com/last" });
    const state = h.sim.state();
    expect(state.jobs.total).toBe(10);
    expect(Object.keys(state.perJob)).toContain(last.job_id);
    expect(Object.keys(state.perJob)).not.toContain(ids[0]);
  });

  it("is deterministic with a seed: same ids and outcomes after a reset; another seed differs", async () => {
    const run = async (seed: number) => {
      h.sim.reset();
      h.sim.setConfig({ seed, failureRate: 0.5 });
      const c = h.client();
      const ids = [];
      for (let i = 0; i < 6; i++) ids.push((await c.submitExtract({ url: `https://example.com/d${i}` })).job_id);
      const outcomes = [];
      for (const id of ids) outcomes.push((await pollJob(c, "extract", id, fast)).status);
      return { ids, outcomes };
    };
    const a = await run(3);
    expect(await run(3)).toEqual(a);
    expect(new Set(a.outcomes)).toEqual(new Set(["completed", "failed"]));
    expect((await run(4)).ids).not.toEqual(a.ids);
  });
});

describe("control API", () => {
  it("POST /_sim/config takes a subset and answers the whole config; rejects bad input with a reason", async () => {
    const ok = await h.control("/_sim/config", { failureRate: 0.25, webhookDelayMs: [10, 20] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      failureRate: 0.25,
      webhookDelayMs: [10, 20],
      retryableShare: 0.5,
      deliveryRetryScheduleMs: expect.any(Array),
    });
    for (const bad of [{ failureRate: 2 }, { jobDurationMs: [50, 10] }, { nope: 1 }, { deliveryRetryScheduleMs: [] }]) {
      const res = await h.control("/_sim/config", bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body).toMatchObject({ message: expect.any(String) });
    }
    expect(h.sim.getConfig().failureRate).toBe(0.25);
    expect(() => h.sim.setConfig({ failureRate: -1 })).toThrow(/failureRate/);
  });

  it("GET /_sim/state counts jobs and deliveries; POST /_sim/reset clears them and keeps the config", async () => {
    const c = h.client();
    await c.createWebhook({ url: "http://127.0.0.1:9/unreachable", event_type: "extract_completed" });
    const { job_id } = await c.submitExtract({ url: "https://example.com/s" });
    await pollJob(c, "extract", job_id, fast);
    await waitFor("an attempt", () => h.sim.state().perJob[job_id].sent >= 1);
    const state = await h.control("/_sim/state");
    expect(state.body).toMatchObject({
      jobs: { byStatus: { completed: 1 }, total: 1 },
      deliveries: { byStatus: expect.any(Object) },
      perJob: { [job_id]: { kind: "extract", status: "completed", dropped: 0, duplicated: 0, delivered: 0 } },
    });
    await h.control("/_sim/config", { failureRate: 0.3 });
    const reset = await h.control("/_sim/reset");
    expect(reset.status).toBe(200);
    expect(h.sim.state()).toMatchObject({ jobs: { total: 0 }, deliveries: { total: 0 }, webhooks: 0, perJob: {} });
    expect(h.sim.getConfig().failureRate).toBe(0.3);
    expect(await collect(c.listExtractJobs())).toEqual([]);
  });

  it("POST /_sim/faults queues exact faults", async () => {
    expect((await h.control("/_sim/faults", { kind: "server_error", count: 2, status: 502 })).body).toEqual({
      queued: 2,
    });
    expect((await h.control("/_sim/faults", { kind: "teapot" })).status).toBe(400);
    const statuses: (number | null)[] = [];
    await h.client({ onCall: (i) => statuses.push(i.status) }).listWebhooks();
    expect(statuses).toEqual([502, 502, 200]);
  });

  it("is off in strict mode", async () => {
    const strict = await startSim({ mode: "strict" });
    try {
      expect((await strict.control("/_sim/state")).status).toBe(404);
      expect((await strict.control("/_sim/reset")).status).toBe(404);
      expect(await strict.client().health()).toEqual({ status: "ok" });
    } finally {
      await strict.close();
    }
  });

  it("demo mode switches faults on by default", async () => {
    const demo = await startSim({ mode: "demo", config: {} });
    try {
      const cfg = (await demo.control("/_sim/config")).body;
      expect(cfg).toMatchObject({ failureRate: 0.1, webhookDropRate: 0.05, rateLimitRate: 0.02 });
    } finally {
      await demo.close();
    }
  });
});
