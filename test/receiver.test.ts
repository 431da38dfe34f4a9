// The receiver over real HTTP against Tally's server (what `npm start` runs): every answer of issue 4, both schemes, the
// previous-secret window, concurrent duplicates, and receipt + queue item committed together.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery } from "@/lib/signing/signature";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { startTally, type TallyServer } from "./tally-server";
import { deliver, envelope } from "./webhook-client";

const HMAC_SECRET = "whsec_hmac_current_secret_value";
const OLD_SECRET = "whsec_hmac_previous_secret_value";
const STD_SECRET = "whsec_" + Buffer.from("standard-webhooks-key-0123456789").toString("base64");
const SHARED_SECRET = "env-shared-secret-value";

let t: TestDb;
let tally: TallyServer;
let sql: TestSql;

beforeAll(async () => {
  t = await createTestDb();
  sql = await openSql(t.url);
  const insert = (...args: unknown[]) =>
    sql.run(
      `INSERT INTO Subscription (id, eventType, url, isActive, scheme, secret, previousSecret, previousSecretExpiresAt, createdAt, updatedAt)
       VALUES (?, ?, 'http://x', true, ?, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      ...args,
    );
  const future = new Date(Date.now() + 3_600_000);
  const past = new Date(Date.now() - 1000);
  await insert("sub-hmac", "extract_completed", "hmac", HMAC_SECRET, OLD_SECRET, future);
  await insert("sub-std", "batch_completed", "standard", STD_SECRET, null, null);
  await insert("sub-expired", "crawl_completed", "hmac", "whsec_new_crawl", "whsec_old_crawl", past);
  // Live mode against an address nobody answers, worker off: only the receiver touches the rows.
  tally = await startTally(
    {
      GEONODE_WEBHOOK_SECRET: SHARED_SECRET,
      TALLY_WEBHOOK_MAX_BODY_BYTES: "4096",
      GEONODE_SCRAPER_API_KEY: "receiver-test",
      SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
      TALLY_WORKER: "off",
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    },
    t.url,
  );
});
afterAll(async () => {
  await sql?.close();
  await tally?.stop();
  await t?.cleanup();
});

const lastLog = async () =>
  (await sql.get("SELECT * FROM InboundDelivery ORDER BY id DESC LIMIT 1")) as Record<string, unknown>;
async function waitFor(ok: () => Promise<boolean>, ms = 5000) {
  for (const end = Date.now() + ms; !(await ok()) && Date.now() < end;) await new Promise((r) => setTimeout(r, 25));
}
const url = (key?: string) => `${tally.url}/webhooks/geonode${key ? `/${key}` : ""}`;

describe("receiver answers", () => {
  it("accepts a signed delivery: one receipt and one queue item, committed together, and a log row", async () => {
    const r = await deliver(url("sub-hmac"), envelope("job-a1"), { secret: HMAC_SECRET });
    expect(r).toEqual({ status: 200, json: { status: "accepted" } });
    expect(await sql.count("Receipt", "jobId = ?", "job-a1")).toBe(1);
    const item = (await sql.get("SELECT * FROM QueueItem WHERE jobId = ?", "job-a1")) as Record<string, unknown>;
    expect(item).toMatchObject({ kind: "process_job", state: "ready", dedupeKey: "job:job-a1", attempts: 0 });
    expect(JSON.parse(String(item.payload))).toMatchObject({
      jobId: "job-a1",
      eventType: "extract_completed",
      source: "webhook",
    });
    expect(await lastLog()).toMatchObject({
      status: 200,
      reason: "accepted",
      jobId: "job-a1",
      subscriptionId: "sub-hmac",
      eventType: "extract_completed",
    });
  });

  it("answers duplicate for a job already received, storing nothing more", async () => {
    const r = await deliver(url("sub-hmac"), envelope("job-a1"), { secret: HMAC_SECRET });
    expect(r).toEqual({ status: 200, json: { status: "duplicate" } });
    expect(await sql.count("Receipt", "jobId = ?", "job-a1")).toBe(1);
    expect(await sql.count("QueueItem", "jobId = ?", "job-a1")).toBe(1);
  });

  it("stores concurrent duplicates of one job exactly once", async () => {
    const body = envelope("job-race");
    const answers = await Promise.all(
      Array.from({ length: 24 }, () => deliver(url("sub-hmac"), body, { secret: HMAC_SECRET })),
    );
    expect(answers.filter((a) => a.json.status === "accepted")).toHaveLength(1);
    expect(answers.filter((a) => a.json.status === "duplicate")).toHaveLength(23);
    expect(await sql.count("Receipt", "jobId = ?", "job-race")).toBe(1);
    expect(await sql.count("QueueItem", "jobId = ?", "job-race")).toBe(1);
  });

  it("accepts the sha256= prefix", async () => {
    const body = envelope("job-prefix");
    const sig = signDelivery(
      { kind: "hmac", header: "X-Webhook-Signature", algorithm: "sha256", encoding: "hex", prefix: "sha256=" },
      HMAC_SECRET,
      body,
      { id: "x", timestamp: 0 },
    );
    const r = await deliver(url("sub-hmac"), body, { headers: sig });
    expect(r.json).toEqual({ status: "accepted" });
  });

  it("refuses wrong and missing signatures with 401, storing only a log row without the body", async () => {
    const before = await sql.count("Receipt");
    const wrong = await deliver(url("sub-hmac"), envelope("job-evil"), { secret: "not-the-secret" });
    expect(wrong).toEqual({ status: 401, json: { error: "invalid_signature" } });
    expect(await lastLog()).toMatchObject({
      status: 401,
      jobId: null,
      subscriptionId: "sub-hmac",
      reason: "signature_mismatch",
    });
    const missing = await deliver(url(), envelope("job-evil"));
    expect(missing.status).toBe(401);
    expect(await sql.count("Receipt")).toBe(before);
    expect(await sql.count("QueueItem", "jobId = ?", "job-evil")).toBe(0);
    expect(await sql.count("InboundDelivery", "jobId = ?", "job-evil")).toBe(0);
  });

  it.each([
    ["malformed JSON", "{not json", /not valid UTF-8 JSON/],
    ["an empty body", "", /empty body/],
    ["a JSON array", "[1,2]", /must be a JSON object/],
    ["a JSON scalar", "42", /must be a JSON object/],
    ["no job id", JSON.stringify({ event: "extract_completed", data: {} }), /no job id/],
    [
      "a numeric job id",
      JSON.stringify({ event: "extract_completed", data: { job_id: 7 } }),
      /job_id must be a string/,
    ],
    ["invalid UTF-8", Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), /UTF-8/],
  ])("answers 400 with a reason for %s with a valid signature", async (_name, body, reason) => {
    const before = await sql.count("Receipt");
    const r = await deliver(url("sub-hmac"), body, { secret: HMAC_SECRET });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("bad_request");
    expect(r.json.reason).toMatch(reason);
    expect(await sql.count("Receipt")).toBe(before);
  });

  it("acknowledges a signed event of an unknown type as ignored, without queueing it", async () => {
    const r = await deliver(url("sub-hmac"), envelope("job-unknown", "map_completed"), { secret: HMAC_SECRET });
    expect(r).toEqual({ status: 200, json: { status: "ignored" } });
    expect(await sql.count("Receipt", "jobId = ?", "job-unknown")).toBe(0);
    expect(await lastLog()).toMatchObject({ status: 200, reason: "unknown event type", eventType: "map_completed" });
  });

  it("takes the event type from the subscription, or refuses with 400 on the shared path", async () => {
    const flat = JSON.stringify({ job_id: "job-no-event" });
    expect((await deliver(url("sub-hmac"), flat, { secret: HMAC_SECRET })).json).toEqual({ status: "accepted" });
    const shared = await deliver(url(), JSON.stringify({ job_id: "job-no-event-2" }), { secret: SHARED_SECRET });
    expect(shared.status).toBe(400);
    expect(shared.json.reason).toMatch(/no event type/);
  });

  it("accepts the source article's flat shape and headers on the shared path with GEONODE_WEBHOOK_SECRET", async () => {
    const flat = JSON.stringify({ id: "evt-1", job_id: "job-flat", event_type: "batch_completed" });
    expect((await deliver(url(), flat, { secret: SHARED_SECRET })).json).toEqual({ status: "accepted" });
    const viaHeader = JSON.stringify({ job_id: "job-flat-2" });
    const r = await deliver(url(), viaHeader, {
      secret: SHARED_SECRET,
      headers: { "X-Webhook-Event": "crawl_completed", "X-Webhook-Delivery-Id": "dlv-9" },
    });
    expect(r.json).toEqual({ status: "accepted" });
    expect(await sql.get("SELECT eventType, deliveryId FROM Receipt WHERE jobId = 'job-flat-2'")).toEqual({
      eventType: "crawl_completed",
      deliveryId: "dlv-9",
    });
  });

  it("tries every active subscription's secret on the shared path", async () => {
    expect((await deliver(url(), envelope("job-shared-sub"), { secret: HMAC_SECRET })).json).toEqual({
      status: "accepted",
    });
    expect(await sql.get("SELECT subscriptionId FROM Receipt WHERE jobId = 'job-shared-sub'")).toEqual({
      subscriptionId: "sub-hmac",
    });
  });

  it("answers 413 for a body over the limit, with and without Content-Length", async () => {
    const big = envelope("job-big", "extract_completed", { pad: "x".repeat(5000) });
    const withLength = await deliver(url("sub-hmac"), big, { secret: HMAC_SECRET });
    expect(withLength).toEqual({ status: 413, json: { error: "payload_too_large" } });
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(1000)));
        c.close();
      },
    });
    const res = await fetch(url("sub-hmac"), { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(res.status).toBe(413);
    expect(await sql.count("Receipt", "jobId = 'job-big'")).toBe(0);
  });

  it("answers 405 to other methods and 404 to an unknown subscription key", async () => {
    expect((await deliver(url("sub-hmac"), "", { method: "GET" })).status).toBe(405);
    const res = await fetch(url(), { method: "PUT", body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect((await deliver(url("no-such-key"), envelope("job-x"), { secret: HMAC_SECRET })).status).toBe(404);
    // A malformed escape in the key names no subscription: 404 and a log row, never a crash or a 5xx.
    expect(await deliver(url("sub-%E0%A4%A"), envelope("job-x"), { secret: HMAC_SECRET })).toEqual({
      status: 404,
      json: { error: "unknown_subscription" },
    });
    expect(await lastLog()).toMatchObject({ status: 404, reason: "unknown subscription key" });
  });
});

describe("senders that go away", () => {
  it("logs a delivery abandoned mid-body as 499, stores nothing, and keeps answering", async () => {
    const { port } = new URL(tally.url);
    const body = envelope("job-abandoned");
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write(
          `POST /webhooks/geonode/sub-hmac HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 30)}`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
      socket.on("error", reject);
    });
    await waitFor(async () => (await sql.count("InboundDelivery", "status = 499")) === 1);
    expect(await lastLog()).toMatchObject({ status: 499, subscriptionId: "sub-hmac", jobId: null });
    expect(await sql.count("Receipt", "jobId = ?", "job-abandoned")).toBe(0);
    expect(await deliver(url("sub-hmac"), body, { secret: HMAC_SECRET })).toEqual({
      status: 200,
      json: { status: "accepted" },
    });
  });
});

describe("schemes and secrets", () => {
  const std = { kind: "standard", toleranceSeconds: 300 } as const;

  it("verifies Standard Webhooks, with several signatures in one header", async () => {
    expect(
      (await deliver(url("sub-std"), envelope("job-std", "batch_completed"), { secret: STD_SECRET, scheme: std })).json,
    ).toEqual({ status: "accepted" });
    const body = envelope("job-std-multi", "batch_completed");
    const good = signDelivery(std, STD_SECRET, body, { id: "msg_1", timestamp: Date.now() / 1000 });
    const bad = signDelivery(std, "whsec_" + Buffer.from("other").toString("base64"), body, {
      id: "msg_1",
      timestamp: Date.now() / 1000,
    });
    const headers = { ...good, "webhook-signature": `${bad["webhook-signature"]} ${good["webhook-signature"]}` };
    expect((await deliver(url("sub-std"), body, { headers })).json).toEqual({ status: "accepted" });
  });

  it("refuses a replayed Standard Webhooks timestamp", async () => {
    const body = envelope("job-std-old", "batch_completed");
    const headers = signDelivery(std, STD_SECRET, body, { id: "msg_2", timestamp: Date.now() / 1000 - 3600 });
    const r = await deliver(url("sub-std"), body, { headers });
    expect(r.status).toBe(401);
    expect(await lastLog()).toMatchObject({ status: 401, reason: "timestamp_out_of_tolerance" });
  });

  it("accepts the previous secret while it has not expired, and not after", async () => {
    expect((await deliver(url("sub-hmac"), envelope("job-old-ok"), { secret: OLD_SECRET })).json).toEqual({
      status: "accepted",
    });
    expect(
      (await deliver(url("sub-expired"), envelope("job-old-late", "crawl_completed"), { secret: "whsec_old_crawl" }))
        .status,
    ).toBe(401);
    expect(
      (await deliver(url("sub-expired"), envelope("job-new", "crawl_completed"), { secret: "whsec_new_crawl" })).status,
    ).toBe(200);
  });

  it("picks up a secret changed in the database within a second, without a restart", async () => {
    await sql.run(
      "UPDATE Subscription SET secret = 'whsec_rotated_now', previousSecret = NULL WHERE id = 'sub-expired'",
    );
    await new Promise((r) => setTimeout(r, 1100));
    expect(
      (await deliver(url("sub-expired"), envelope("job-rot-1", "crawl_completed"), { secret: "whsec_rotated_now" }))
        .status,
    ).toBe(200);
    expect(
      (await deliver(url("sub-expired"), envelope("job-rot-2", "crawl_completed"), { secret: "whsec_new_crawl" }))
        .status,
    ).toBe(401);
  });
});

describe("storage failures", () => {
  it("answers 5xx, not duplicate, when the queue item cannot be written, and keeps no receipt", async () => {
    await sql.run('ALTER TABLE "QueueItem" RENAME TO "QueueItemAway"');
    try {
      const r = await deliver(url("sub-hmac"), envelope("job-dberr"), { secret: HMAC_SECRET });
      expect(r.status).toBeGreaterThanOrEqual(500);
      expect(r.json.status).toBeUndefined();
    } finally {
      await sql.run('ALTER TABLE "QueueItemAway" RENAME TO "QueueItem"');
    }
    expect(await sql.count("Receipt", "jobId = 'job-dberr'")).toBe(0);
    // the platform's retry then succeeds
    expect((await deliver(url("sub-hmac"), envelope("job-dberr"), { secret: HMAC_SECRET })).json).toEqual({
      status: "accepted",
    });
  });
});
