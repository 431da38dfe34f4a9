import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startSim } from "@/lib/simulator/test-harness.test-util";
import { collect } from "./paginate";
import {
  PlatformConflict,
  InvalidResponse,
  PlatformNotFound,
  PaymentRequired,
  PlatformUnauthorized,
  Validation,
} from "./errors";
import { pollJob } from "./poll";

let h: Awaited<ReturnType<typeof startSim>>;
beforeAll(async () => {
  h = await startSim({ config: { maxWebhooks: 150 } });
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({ jobDurationMs: [20, 60], maxWebhooks: 150 });
});

const fast = { initialDelayMs: 10, maxDelayMs: 40, deadlineMs: 5000 };

describe("client against the simulator: jobs", () => {
  it("health", async () => {
    expect(await h.client().health()).toEqual({ status: "ok" });
  });

  it("sync extract returns html by default, markdown on request, and hostile content as is", async () => {
    const c = h.client();
    const plain = await c.extract({ url: "https://example.com/docs/intro" });
    expect(plain.data.html).toContain("<h1>");
    expect(plain.data.markdown).toBeNull();
    expect(plain.metadata.processing_mode).toBe("sync");
    expect(plain.tokens_charged).toBe(1);
    const hostile = await c.extract({
      url: "https://example.com/hostile",
      formats: ["markdown", "html"],
      extract_links: true,
    });
    expect(hostile.data.html).toContain("<script>alert(1)</script>");
    expect(hostile.data.html).toContain("onerror=alert(1)");
    expect(hostile.data.markdown).toContain("javascript:alert");
    expect(Math.max(...(hostile.data.html ?? "").split("\n").map((l) => l.length))).toBeGreaterThanOrEqual(20_000);
    expect(hostile.data.links?.length).toBeGreaterThan(0);
  });

  it("async extract: submit, poll, fetch; getJob normalises it", async () => {
    const c = h.client();
    const accepted = await c.submitExtract({ url: "https://example.com/a", formats: ["markdown"] });
    expect(accepted).toMatchObject({
      status: "queued",
      status_url: `/v1/extract/${accepted.job_id}`,
      estimated_tokens: 1,
    });
    const settled = await pollJob(c, "extract", accepted.job_id, fast);
    expect(settled).toMatchObject({ jobId: accepted.job_id, kind: "extract", status: "completed", error: null });
    expect(settled.completedAt).not.toBeNull();
    const job = await c.getExtractJob(accepted.job_id);
    expect(job.data?.markdown).toContain("# a");
    expect(job.metadata?.processing_mode).toBe("async");
  });

  it("lists every page of extraction jobs, with each filter", async () => {
    const c = h.client();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push(
        (await c.submitExtract({ url: `https://example.com/p${i % 2}`, formats: i === 0 ? ["html"] : ["markdown"] }))
          .job_id,
      );
    const pages = [];
    for await (const page of c.listExtractJobs({ page_size: 3 })) pages.push(page);
    expect(pages.map((p) => [p.page, p.items.length, p.pageCount])).toEqual([
      [1, 3, 3],
      [2, 3, 3],
      [3, 1, 3],
    ]);
    expect(new Set(pages.flatMap((p) => p.items.map((j) => j.job_id)))).toEqual(new Set(ids));

    expect((await collect(c.listExtractJobs({ url: "https://example.com/p1", page_size: 2 }))).length).toBe(3);
    expect((await collect(c.listExtractJobs({ output: "html" }))).map((j) => j.job_id)).toEqual([ids[0]]);
    expect((await collect(c.listExtractJobs({ job_id: ids[3] }))).length).toBe(1);
    expect((await collect(c.listExtractJobs({ end_date: new Date(Date.now() - 60_000) }))).length).toBe(0);
    expect((await collect(c.listExtractJobs({ start_date: new Date(Date.now() - 60_000) }))).length).toBe(7);
    await pollJob(c, "extract", ids[6], fast);
    const completed = await collect(c.listExtractJobs({ status: "completed" }));
    expect(completed.every((j) => j.status === "completed")).toBe(true);
  });

  it("batch: submit (invalid URLs listed), every result page, list pages, cancel", async () => {
    const c = h.client();
    const urls = Array.from({ length: 11 }, (_, i) => `https://shop.example/item-${i}`);
    const accepted = await c.submitBatch({ urls: [...urls, "not a url"], formats: ["markdown", "html"] });
    expect(accepted).toMatchObject({ accepted_urls: 11, invalid_urls: ["not a url"] });
    await pollJob(c, "batch", accepted.job_id, fast);
    const first = await c.getBatch(accepted.job_id, { page: 1, pageSize: 5 });
    expect(first).toMatchObject({ status: "completed", total_urls: 11, completed_urls: 11, page_count: 3 });
    const pages = [];
    for await (const page of c.batchResults(accepted.job_id, 5)) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 1]);
    expect(pages.flatMap((p) => p.items.map((i) => i.input_index))).toEqual([...Array(11).keys()]);

    const more = [accepted.job_id];
    for (let i = 0; i < 4; i++) more.push((await c.submitBatch({ urls: [`https://b.example/${i}`] })).job_id);
    const listed = [];
    for await (const page of c.listBatchJobs({ page_size: 2 })) listed.push(page);
    expect(listed).toHaveLength(3);
    expect(new Set(listed.flatMap((p) => p.items.map((j) => j.job_id)))).toEqual(new Set(more));

    h.sim.setConfig({ jobDurationMs: [5000, 5000] });
    const slow = await c.submitBatch({ urls: ["https://b.example/slow"] });
    expect(await c.cancelBatch(slow.job_id)).toMatchObject({
      job_id: slow.job_id,
      status: "cancelled",
      in_flight_urls: 0,
    });
    expect((await c.getJob("batch", slow.job_id)).status).toBe("cancelled");
    await expect(c.cancelBatch(slow.job_id)).rejects.toBeInstanceOf(PlatformConflict);
    await expect(c.cancelBatch(accepted.job_id)).rejects.toMatchObject({ status: 409, code: "INVALID_STATE" });
  });

  it("crawl: submit, results across pages, list pages, cancel", async () => {
    const c = h.client();
    const accepted = await c.submitCrawl({ url: "https://docs.example/start", depth: 3, limit: 50 });
    expect(accepted).toMatchObject({ url: "https://docs.example/start", status: "queued" });
    const job = await pollJob(c, "crawl", accepted.job_id, fast);
    expect(job.status).toBe("completed");
    const items = await collect(c.crawlResults(accepted.job_id, 2));
    const doc = await c.getCrawl(accepted.job_id);
    expect(items).toHaveLength(doc.total_pages);
    expect(items[0]).toMatchObject({ url: "https://docs.example/start", parent_url: null, depth: 1 });
    expect(items.slice(1).every((i) => i.parent_url !== null && i.depth > 1)).toBe(true);

    for (let i = 0; i < 2; i++) await c.submitCrawl({ url: `https://docs.example/${i}` });
    expect((await collect(c.listCrawlJobs({ page_size: 1 }))).length).toBe(3);

    h.sim.setConfig({ jobDurationMs: [5000, 5000] });
    const slow = await c.submitCrawl({ url: "https://docs.example/slow" });
    expect(await c.cancelCrawl(slow.job_id)).toMatchObject({ status: "cancelled", in_flight_pages: 0 });
    await expect(c.cancelCrawl(slow.job_id)).rejects.toMatchObject({ code: "INVALID_STATE" });
  });
});

describe("client against the simulator: typed errors", () => {
  it("401 on a wrong key", async () => {
    const err = await h
      .client({ apiKey: "wrong" })
      .getExtractJob("x")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformUnauthorized);
    expect(err).toMatchObject({ status: 401, code: "UNAUTHORIZED", retryable: false });
    expect((err as PlatformUnauthorized).correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("404 on unknown ids of every kind", async () => {
    const c = h.client();
    const unknown = "00000000-0000-4000-8000-000000000000";
    for (const call of [
      () => c.getExtractJob(unknown),
      () => c.getBatch(unknown),
      () => c.getCrawl(unknown),
      () => c.getWebhook(unknown),
      () => c.cancelBatch(unknown),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(PlatformNotFound);
    }
  });

  it("422 with the detail list, for bodies, queries and UUID paths", async () => {
    const c = h.client();
    const err = await c.submitBatch({ urls: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Validation);
    expect((err as Validation).details).toEqual([
      expect.objectContaining({ loc: ["body", "urls"], type: "too_short" }),
    ]);
    const strict = await c
      .submitBatch({ urls: ["https://ok.example", "bad"], ignore_invalid_urls: false })
      .catch((e: unknown) => e);
    expect((strict as Validation).details[0]).toMatchObject({ loc: ["body", "urls", 1], type: "url_parsing" });
    const query = await c.getBatch("x", { pageSize: 51 }).catch((e: unknown) => e);
    expect((query as Validation).details[0].loc).toEqual(["query", "page_size"]);
    const path = await c.getCrawl("not-a-uuid").catch((e: unknown) => e);
    expect((path as Validation).details[0]).toMatchObject({ loc: ["path", "job_id"], type: "uuid_parsing" });
  });

  it("402 when the balance is empty", async () => {
    const err = await h
      .client()
      .submitExtract({ url: "https://example.com/payment-required" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentRequired);
    expect(err).toMatchObject({ status: 402, code: "INSUFFICIENT_BALANCE" });
  });

  it("a sync extraction failure is a 422 with the flat envelope", async () => {
    const err = await h
      .client()
      .extract({ url: "https://example.com/sim-fail" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Validation);
    expect(err).toMatchObject({ code: "EXTRACTION_FAILED", details: [] });
  });

  it("InvalidResponse names the missing field", async () => {
    // Strip `status` from every JSON answer to play a platform that broke its contract.
    const tamper: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const json: unknown = await res.json();
      const rest =
        json !== null && typeof json === "object"
          ? Object.fromEntries(Object.entries(json).filter(([k]) => k !== "status"))
          : json;
      return new Response(JSON.stringify(rest), { status: res.status, headers: res.headers });
    };
    const { job_id } = await h.client().submitExtract({ url: "https://example.com/x" });
    const err = await h
      .client({ fetch: tamper })
      .getExtractJob(job_id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponse);
    expect((err as InvalidResponse).issues.map((i) => i.path)).toEqual(["status"]);
    expect((err as Error).message).toContain("status");
  });
});

describe("client against the simulator: webhooks", () => {
  it("create (secret once), get, update, list every page, rotate, delete, limit", async () => {
    const c = h.client();
    const created = await c.createWebhook({
      url: "https://tally.example/hook",
      event_type: "batch_completed",
      description: "d",
    });
    expect(created.secret).toMatch(/^whsec_/);
    const fetched = await c.getWebhook(created.id);
    expect(fetched).not.toHaveProperty("secret");
    expect(fetched).toMatchObject({ id: created.id, is_active: true, event_type: "batch_completed", description: "d" });
    const updated = await c.updateWebhook(created.id, { is_active: false, description: null });
    expect(updated).toMatchObject({ is_active: false, description: null, url: "https://tally.example/hook" });
    const { secret } = await c.rotateWebhookSecret(created.id);
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(created.secret);

    for (let i = 0; i < 104; i++)
      await c.createWebhook({ url: `https://tally.example/h${i}`, event_type: "extract_completed" });
    const all = await c.listWebhooks();
    expect(all).toHaveLength(105);
    expect(all.some((w) => "secret" in w)).toBe(false);
    await c.deleteWebhook(created.id);
    await expect(c.getWebhook(created.id)).rejects.toBeInstanceOf(PlatformNotFound);
    await expect(c.deleteWebhook(created.id)).rejects.toBeInstanceOf(PlatformNotFound);

    h.sim.setConfig({ maxWebhooks: 104 });
    const err = await c
      .createWebhook({ url: "https://tally.example/over", event_type: "extract_completed" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformConflict);
  });

  it("422 on an invalid webhook body", async () => {
    const err = await h
      .client()
      .createWebhook({ url: "ftp://x", event_type: "extract_completed" })
      .catch((e: unknown) => e);
    expect((err as Validation).details[0].loc).toEqual(["body", "url"]);
  });
});
