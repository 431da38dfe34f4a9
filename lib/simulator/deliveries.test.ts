import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { collect } from "@/lib/platform/paginate";
import { defaultHmacScheme, defaultStandardScheme, verifyDelivery } from "@/lib/signing/signature";
import { baseConfig } from "./config";
import {
  fastConfig,
  headerGetter,
  startReceiver,
  startSim,
  waitFor,
  sleepMs,
  type Received,
} from "./test-harness.test-util";

let h: Awaited<ReturnType<typeof startSim>>;
let receiver: Awaited<ReturnType<typeof startReceiver>> | null = null;
beforeAll(async () => {
  h = await startSim();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sim.reset();
  h.sim.setConfig({ ...baseConfig, ...fastConfig, seed: 42 });
});
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

const now = () => Math.floor(Date.now() / 1000);
const json = (r: Received) =>
  JSON.parse(r.body.toString("utf8")) as {
    event: string;
    webhook_id: string;
    delivery_id: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

async function subscribe(
  event: "extract_completed" | "batch_completed" | "crawl_completed",
  answer?: Parameters<typeof startReceiver>[0],
) {
  receiver = await startReceiver(answer);
  const hook = await h.client().createWebhook({ url: receiver.url, event_type: event });
  return { hook, receiver };
}

describe("webhook deliveries", () => {
  it("sends the documented envelope and headers, signed so that verifyDelivery accepts it", async () => {
    const { hook, receiver: r } = await subscribe("extract_completed");
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/signed", formats: ["markdown"] });
    await waitFor("delivery", () => r.received.length === 1);
    const got = r.received[0];
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["user-agent"]).toBe("scraper-api-webhook/1.0");
    expect(got.headers["x-webhook-event"]).toBe("extract_completed");
    const body = json(got);
    expect(body).toMatchObject({
      event: "extract_completed",
      webhook_id: hook.id,
      delivery_id: got.headers["x-webhook-delivery-id"],
    });
    expect(Date.parse(body.timestamp)).not.toBeNaN();
    // data is the GET document of the job
    expect(body.data).toEqual((await c.getExtractJob(job_id)) as unknown);
    expect(verifyDelivery(defaultHmacScheme, [hook.secret], got.body, headerGetter(got.headers), now())).toEqual({
      ok: true,
      secretIndex: 0,
    });
    await waitFor("log", () => h.sim.state().deliveries.byStatus.success === 1);
    expect(h.sim.state().perJob[job_id]).toMatchObject({
      sent: 1,
      delivered: 1,
      dropped: 0,
      duplicated: 0,
      lastHttpStatus: 200,
    });
  });

  it("batch and crawl events carry the status document without results", async () => {
    const { receiver: r } = await subscribe("batch_completed");
    const c = h.client();
    const { job_id } = await c.submitBatch({ urls: ["https://a.example/1", "https://a.example/2"] });
    await waitFor("delivery", () => r.received.length === 1);
    const data = json(r.received[0]).data;
    expect(data).toMatchObject({ job_id, status: "completed", total_urls: 2, completed_urls: 2 });
    expect(data).not.toHaveProperty("results");
  });

  it("fires on failed and cancelled jobs too, with the status inside data", async () => {
    const { receiver: r } = await subscribe("crawl_completed");
    const c = h.client();
    h.sim.setConfig({ failureRate: 1, retryableShare: 1 });
    const failed = await c.submitCrawl({ url: "https://c.example/" });
    await waitFor("failed delivery", () => r.received.length === 1);
    expect(json(r.received[0]).data).toMatchObject({
      job_id: failed.job_id,
      status: "failed",
      error: { retryable: true },
    });
    h.sim.setConfig({ jobDurationMs: [5000, 5000] });
    const slow = await c.submitCrawl({ url: "https://c.example/slow" });
    await c.cancelCrawl(slow.job_id);
    await waitFor("cancel delivery", () => r.received.length === 2);
    expect(json(r.received[1]).data).toMatchObject({ job_id: slow.job_id, status: "cancelled" });
  });

  it("after rotate-secret the old secret no longer verifies", async () => {
    const { hook, receiver: r } = await subscribe("extract_completed");
    const c = h.client();
    const { secret } = await c.rotateWebhookSecret(hook.id);
    await c.submitExtract({ url: "https://example.com/rotated" });
    await waitFor("delivery", () => r.received.length === 1);
    const got = r.received[0];
    const headers = headerGetter(got.headers);
    expect(verifyDelivery(defaultHmacScheme, [hook.secret], got.body, headers, now())).toEqual({
      ok: false,
      reason: "signature_mismatch",
    });
    expect(verifyDelivery(defaultHmacScheme, [secret, hook.secret], got.body, headers, now())).toEqual({
      ok: true,
      secretIndex: 0,
    });
  });

  it("signs with Standard Webhooks when configured", async () => {
    h.sim.setConfig({ signatureScheme: defaultStandardScheme });
    const { hook, receiver: r } = await subscribe("extract_completed");
    await h.client().submitExtract({ url: "https://example.com/std" });
    await waitFor("delivery", () => r.received.length === 1);
    const got = r.received[0];
    expect(got.headers["webhook-id"]).toBe(json(got).delivery_id);
    expect(got.headers["webhook-signature"]).toMatch(/^v1,/);
    expect(verifyDelivery(defaultStandardScheme, [hook.secret], got.body, headerGetter(got.headers), now())).toEqual({
      ok: true,
      secretIndex: 0,
    });
  });

  it("retries non-2xx on the schedule with one delivery_id, then abandons; the log pages through every attempt", async () => {
    const { hook, receiver: r } = await subscribe("extract_completed", () => 500);
    const c = h.client();
    const { job_id } = await c.submitExtract({ url: "https://example.com/down" });
    await waitFor("abandoned", () => h.sim.state().deliveries.byStatus.abandoned === 1);
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers["x-webhook-delivery-id"])).size).toBe(1);
    const pages = [];
    for await (const page of c.listDeliveries(hook.id, { pageSize: 2 })) pages.push(page);
    expect(pages.map((p) => p.items.length)).toEqual([2, 1]);
    const log = pages.flatMap((p) => p.items);
    expect(log.map((d) => [d.attempt_number, d.status, d.http_status])).toEqual([
      [3, "abandoned", 500],
      [2, "failed", 500],
      [1, "failed", 500],
    ]);
    expect(log.every((d) => d.job_id === job_id && d.event_type === "extract_completed")).toBe(true);
    expect(new Set(log.map((d) => d.id)).size).toBe(3);
    expect(await collect(c.listDeliveries(hook.id, { status: "abandoned" }))).toHaveLength(1);
    expect(await collect(c.listDeliveries(hook.id, { since: new Date(Date.now() + 60_000) }))).toHaveLength(0);
    expect(h.sim.state().perJob[job_id]).toMatchObject({ sent: 3, delivered: 0, lastHttpStatus: 500 });
  });

  it("succeeds on a later attempt; a timeout logs no http_status; ids per attempt when configured", async () => {
    h.sim.setConfig({ deliveryTimeoutMs: 50, deliveryIdPerAttempt: true });
    const { hook, receiver: r } = await subscribe("extract_completed", (_req, i) =>
      i === 0 ? { status: 200, delayMs: 300 } : i === 1 ? 503 : 204,
    );
    await h.client().submitExtract({ url: "https://example.com/flaky" });
    await waitFor("success", () => h.sim.state().deliveries.byStatus.success === 1);
    const log = await collect(h.client().listDeliveries(hook.id));
    expect(log.map((d) => [d.attempt_number, d.status, d.http_status])).toEqual([
      [3, "success", 204],
      [2, "failed", 503],
      [1, "failed", null],
    ]);
    expect(log[2].delivered_at).toBeNull();
    expect(new Set(r.received.map((x) => x.headers["x-webhook-delivery-id"])).size).toBe(3);
  });

  it("drops (never sent, never logged) and duplicates (same delivery_id twice)", async () => {
    const { hook, receiver: r } = await subscribe("extract_completed");
    const c = h.client();
    h.sim.setConfig({ webhookDropRate: 1 });
    const dropped = await c.submitExtract({ url: "https://example.com/dropped" });
    await waitFor("settled", () => h.sim.state().perJob[dropped.job_id]?.status === "completed");
    await sleepMs(50);
    expect(r.received).toHaveLength(0);
    expect(await collect(c.listDeliveries(hook.id))).toHaveLength(0);
    expect(h.sim.state().perJob[dropped.job_id]).toMatchObject({ dropped: 1, sent: 0 });

    h.sim.setConfig({ webhookDropRate: 0, webhookDuplicateRate: 1 });
    const dup = await c.submitExtract({ url: "https://example.com/dup" });
    await waitFor("two copies acknowledged", () => h.sim.state().perJob[dup.job_id]?.delivered === 2);
    expect(r.received[0].headers["x-webhook-delivery-id"]).toBe(r.received[1].headers["x-webhook-delivery-id"]);
    expect(h.sim.state().perJob[dup.job_id]).toMatchObject({ duplicated: 1, sent: 2, delivered: 2 });
  });

  it("drop decisions replay with the seed", async () => {
    const run = async () => {
      h.sim.reset();
      h.sim.setConfig({ seed: 7, webhookDropRate: 0.5, jobDurationMs: [30, 30] });
      receiver = receiver ?? (await startReceiver());
      await h.client().createWebhook({ url: receiver.url, event_type: "extract_completed" });
      const ids: string[] = [];
      for (let i = 0; i < 8; i++)
        ids.push((await h.client().submitExtract({ url: `https://example.com/s${i}` })).job_id);
      await waitFor("all settled", () => ids.every((id) => h.sim.state().perJob[id]?.status === "completed"));
      return ids.map((id) => [id, h.sim.state().perJob[id].dropped]);
    };
    const first = await run();
    const second = await run();
    expect(second).toEqual(first);
    const drops = first.filter(([, d]) => d === 1).length;
    expect(drops).toBeGreaterThan(0);
    expect(drops).toBeLessThan(8);
  });

  it("early webhooks arrive while GET still answers processing", async () => {
    h.sim.setConfig({ earlyWebhookRate: 1, earlyWebhookLagMs: 300 });
    const c = h.client();
    const seen: string[] = [];
    const { receiver: r } = await subscribe("extract_completed");
    const { job_id } = await c.submitExtract({ url: "https://example.com/early" });
    await waitFor("delivery", () => r.received.length === 1);
    seen.push((await c.getExtractJob(job_id)).status);
    expect(json(r.received[0]).data).toMatchObject({ status: "completed" });
    expect(seen).toEqual(["processing"]);
    await waitFor("visible", async () => (await c.getExtractJob(job_id)).status === "completed", 2000);
  });

  it("delays reorder deliveries; paused or other-event subscriptions get nothing", async () => {
    h.sim.setConfig({ webhookDelayRate: 1, webhookDelayMs: [0, 250], jobDurationMs: [20, 20] });
    const { hook, receiver: r } = await subscribe("extract_completed");
    const c = h.client();
    const other = await c.createWebhook({ url: r.url, event_type: "batch_completed" });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await c.submitExtract({ url: `https://example.com/d${i}` })).job_id);
    await waitFor("six deliveries", () => r.received.length === 6);
    const order = r.received.map((x) => json(x).data.job_id);
    expect(new Set(order)).toEqual(new Set(ids));
    expect(order).not.toEqual(ids);
    expect(r.received.every((x) => json(x).webhook_id === hook.id)).toBe(true);
    await c.updateWebhook(hook.id, { is_active: false });
    await c.submitExtract({ url: "https://example.com/paused" });
    await sleepMs(400);
    expect(r.received).toHaveLength(6);
    expect(await collect(c.listDeliveries(other.id))).toHaveLength(0);
  });
});
