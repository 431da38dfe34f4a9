// Forwarding over real HTTP against Tally's server (run `npm run build` first): the default destination
// from TALLY_FORWARD_URL, the destinations and outbound APIs (bad input → 400 with a reason, secrets
// shown once then masked), and a job carried to "stored" by the server's worker whose job.stored event
// reaches a sink that answers 500 first: retried, then delivered, signed with the destination's secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { startSink, type Sink } from "@/lib/outbound/test-sink";
import { webhookId } from "@/lib/outbound/webhook-id";
import { processJobItem } from "@/lib/jobs/process-job";
import { enqueue } from "@/lib/queue";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { verifyDelivery } from "@/lib/signing/signature";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const SECRET = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let sink: Sink;
let tally: TallyServer;

beforeAll(async () => {
  sink = await startSink((_r, seen) => (seen === 0 ? 500 : 200));
  sim = await startSim();
  t = await createTestDb();
  tally = await startTally(
    {
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_WORKER: "on",
      TALLY_API_RPS: "1000",
      TALLY_FORWARD_URL: sink.url,
      TALLY_FORWARD_SECRET: SECRET,
      TALLY_FORWARD_RETRY_INITIAL_MS: "50",
      TALLY_FORWARD_RETRY_MAX_MS: "200",
    },
    t.url,
  );
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await sink?.close();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
async function api(path: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(tally.url + path, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { ...auth, ...(init.body !== undefined ? { "content-type": "application/json" } : {}) },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, text, json: z.record(z.string(), z.unknown()).parse(JSON.parse(text)) };
}

describe("destinations API", () => {
  it("has the default destination from the environment, its secret masked", async () => {
    const r = await api("/api/destinations");
    expect(r.status).toBe(200);
    expect(r.json.items).toEqual([
      expect.objectContaining({
        id: "dst_default",
        url: sink.url,
        source: "config",
        enabled: true,
        secretLast4: SECRET.slice(-4),
      }),
    ]);
    expect(r.text).not.toContain(SECRET.slice(6, 30));
    expect(tally.output()).not.toContain(SECRET.slice(6, 30));
  });

  it("answers bad input with 400 and a reason", async () => {
    const cases: [unknown, RegExp][] = [
      [{ url: "ftp://files.example/x", events: ["job.stored"] }, /http:\/\/ or https:\/\//],
      [{ url: "not a url", events: ["job.stored"] }, /url/],
      [{ events: ["job.stored"] }, /url/],
      [{ url: "https://a.example", events: [] }, /at least one/],
      [{ url: "https://a.example", events: ["job.resubmitted"] }, /one of job.stored/],
      [{ url: "https://a.example", events: "job.stored" }, /events must be a list/],
      [{ url: "https://a.example", events: ["job.stored"], secret: "hunter2" }, /whsec_/],
      [{ url: "https://a.example", events: ["job.stored"], extra: 1 }, /extra|Unrecognized/i],
      ["[1,2]", /Invalid body/],
      ["{not json", /not valid JSON/],
    ];
    for (const [body, reason] of cases) {
      const r = await api("/api/destinations", { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(String(r.json.message), JSON.stringify(body)).toMatch(reason);
    }
    for (const body of [
      {},
      { deliveryId: "x" },
      { destinationId: "dst_default" },
      { destinationId: "dst_default", since: "yesterday" },
      { deliveryId: 1, destinationId: "d", since: "2026-01-01T00:00:00Z" },
    ]) {
      const r = await api("/api/outbound/replay", { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect((await api("/api/outbound?status=lost")).status).toBe(400);
    expect((await api("/api/outbound?limit=0")).status).toBe(400);
    expect((await api("/api/outbound/replay", { body: { deliveryId: 999_999 } })).status).toBe(404);
    expect((await api("/api/destinations/dst_nobody/disable", { body: {} })).status).toBe(404);
  });

  it("shows a new destination's secret once (201), masks it afterwards, refuses a duplicate URL, disables", async () => {
    const created = await api("/api/destinations", {
      body: { url: "https://team.example/hooks", events: ["job.stored"] },
    });
    expect(created.status).toBe(201);
    const secret = z
      .string()
      .regex(/^whsec_/)
      .parse(created.json.secret);
    const id = z.string().parse(created.json.id);
    const list = await api("/api/destinations");
    expect(list.text).not.toContain(secret);
    expect(list.json.items).toContainEqual(
      expect.objectContaining({ id, secretLast4: secret.slice(-4), events: ["job.stored"] }),
    );
    expect(
      (await api("/api/destinations", { body: { url: "https://team.example/hooks", events: ["job.cancelled"] } }))
        .status,
    ).toBe(409);
    const disabled = await api(`/api/destinations/${id}/disable`, { body: {} });
    expect(disabled.status).toBe(200);
    expect(disabled.json).toMatchObject({ id, enabled: false });
    expect(disabled.text).not.toContain(secret);
    expect(
      (await api("/api/outbound/replay", { body: { destinationId: id, since: "2026-01-01T00:00:00Z" } })).status,
    ).toBe(409);
    const audit = await db().auditLog.findMany({ where: { action: { startsWith: "destinations." } } });
    // Refusals are audited too (ok false): the duplicate URL here, the unknown id in the test above.
    expect(audit.map((a) => `${a.action} ${a.ok}`).sort()).toEqual([
      "destinations.create false",
      "destinations.create true",
      "destinations.disable false",
      "destinations.disable true",
    ]);
    expect(JSON.stringify(audit)).not.toContain(secret);
  });
});

describe("forwarding through the server's worker", () => {
  it("sends job.stored, retries after a 500, and records both attempts", async () => {
    const r = await api("/api/jobs", {
      body: { kind: "extract", url: "https://example.com/forwarded", formats: ["markdown"] },
    });
    expect(r.status).toBe(201);
    const jobId = z.string().parse(r.json.jobId);
    await enqueue(db(), processJobItem({ jobId, eventType: "extract_completed", source: "webhook" }));
    const id = webhookId(jobId, "stored");
    await waitFor(
      "delivered",
      async () => sink.requests.filter((q) => q.headers["webhook-id"] === id).length >= 2,
      20_000,
    );

    const mine = sink.requests.filter((q) => q.headers["webhook-id"] === id);
    for (const q of mine) {
      const headers = { get: (h: string) => (q.headers[h] as string | undefined) ?? null };
      expect(
        verifyDelivery(
          { kind: "standard", toleranceSeconds: 300 },
          [SECRET],
          Buffer.from(q.body),
          headers,
          Date.now() / 1000,
        ).ok,
      ).toBe(true);
    }
    const body = JSON.parse(mine[1].body);
    expect(body).toMatchObject({
      type: "job.stored",
      data: { jobId, kind: "extract", outcome: "stored", url: "https://example.com/forwarded" },
    });
    expect(Array.isArray(body.data.results) && body.data.results.length).toBe(1);

    await waitFor(
      "recorded",
      async () => {
        const page = await api(`/api/outbound?destinationId=dst_default&jobId=${jobId}`);
        return z.array(z.object({ status: z.string() }).loose()).parse(page.json.items)[0]?.status === "delivered";
      },
      10_000,
    );
    const page = await api(`/api/outbound?destinationId=dst_default&jobId=${jobId}`);
    expect(page.json.items).toEqual([
      expect.objectContaining({
        eventId: id,
        status: "delivered",
        attempts: 2,
        lastStatusCode: 200,
        eventType: "job.stored",
      }),
    ]);
    const deliveryId = z.array(z.object({ id: z.number() }).loose()).parse(page.json.items)[0].id;
    const attempts = await api(`/api/outbound/${deliveryId}`);
    expect(attempts.json.items).toEqual([
      expect.objectContaining({ attempt: 1, ok: false, statusCode: 500, error: expect.stringMatching(/^HTTP 500/) }),
      expect.objectContaining({ attempt: 2, ok: true, statusCode: 200, error: null }),
    ]);
    expect((await api("/api/outbound/999999")).status).toBe(404);
    expect((await api("/api/outbound/abc")).status).toBe(400);
    const health = await api("/api/outbound/health");
    expect(health.json.items).toContainEqual(
      expect.objectContaining({
        destinationId: "dst_default",
        attempts: 2,
        successRate: 0.5,
        lastError: expect.stringMatching(/HTTP 500/),
      }),
    );
  });
});
