// `npm run receiver`: the same receiver on bare node:http, over real HTTP, on its own database; it
// answers GET /api/metrics (the app's answer and bearer) with its own delivery counts.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { freePort, TEST_ENV } from "./tally-server";
import { metricValue, processLabels } from "./metrics-text";
import { deliver, envelope } from "./webhook-client";

const SECRET = "whsec_receiver_process_secret";
const METRICS_TOKEN = "receiver-metrics-token-0123456789";
let t: TestDb;
let child: ChildProcess;
let url: string;
let sql: TestSql;
let output = "";

beforeAll(async () => {
  t = await createTestDb();
  sql = await openSql(t.url);
  await addSubscription(sql, "sub-1", SECRET);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(
    path.resolve("node_modules/.bin/tsx"),
    ["--conditions=react-server", "scripts/receiver.ts", String(port)],
    {
      env: {
        ...process.env,
        ...TEST_ENV,
        DATABASE_URL: t.url,
        GEONODE_SCRAPER_API_KEY: "k",
        TALLY_WEBHOOK_MAX_BODY_BYTES: "4096",
        TALLY_METRICS_TOKEN: METRICS_TOKEN,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  for (let i = 0; i < 200 && !output.includes("Tally receiver on"); i++) await new Promise((r) => setTimeout(r, 100));
  if (!output.includes("Tally receiver on")) throw new Error(`receiver did not start:\n${output}`);
});
afterAll(async () => {
  child?.kill("SIGTERM");
  await sql?.close();
  await t?.cleanup();
});

const count = async (q: string, ...args: unknown[]) => ((await sql.get(q, ...args)) as { n: number }).n;

describe("npm run receiver", () => {
  it("accepts once, answers duplicates, and stores exactly one receipt and queue item under a race", async () => {
    const body = envelope("job-p1");
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => deliver(`${url}/webhooks/geonode/sub-1`, body, { secret: SECRET })),
    );
    expect(answers.filter((a) => a.json.status === "accepted")).toHaveLength(1);
    expect(answers.filter((a) => a.json.status === "duplicate")).toHaveLength(15);
    expect(await count(`SELECT COUNT(*) n FROM Receipt WHERE jobId = 'job-p1'`)).toBe(1);
    expect(await count(`SELECT COUNT(*) n FROM QueueItem WHERE jobId = 'job-p1' AND dedupeKey = 'job:job-p1'`)).toBe(1);
    expect((await deliver(`${url}/webhooks/geonode`, envelope("job-p2"), { secret: SECRET })).json).toEqual({
      status: "accepted",
    });
  });

  it("gives the same refusals as the Next route, storing nothing but log rows", async () => {
    expect(await deliver(`${url}/webhooks/geonode/sub-1`, envelope("job-bad"), { secret: "wrong" })).toEqual({
      status: 401,
      json: { error: "invalid_signature" },
    });
    const bad = await deliver(`${url}/webhooks/geonode/sub-1`, "[1]", { secret: SECRET });
    expect(bad.status).toBe(400);
    expect(bad.json.reason).toMatch(/JSON object/);
    expect(
      (
        await deliver(
          `${url}/webhooks/geonode/sub-1`,
          envelope("job-big", "extract_completed", { pad: "x".repeat(5000) }),
          { secret: SECRET },
        )
      ).status,
    ).toBe(413);
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("x".repeat(1000)));
        c.close();
      },
    });
    expect(
      (await fetch(`${url}/webhooks/geonode/sub-1`, { method: "POST", body: stream, duplex: "half" } as RequestInit))
        .status,
    ).toBe(413);
    expect((await deliver(`${url}/webhooks/geonode/sub-1`, "", { method: "GET" })).status).toBe(405);
    expect((await deliver(`${url}/webhooks/geonode/nope`, envelope("job-x"), { secret: SECRET })).status).toBe(404);
    expect((await fetch(`${url}/api/jobs`)).status).toBe(404);
    expect(await count(`SELECT COUNT(*) n FROM Receipt WHERE jobId IN ('job-bad','job-big','job-x')`)).toBe(0);
    expect(
      await count(`SELECT COUNT(*) n FROM InboundDelivery WHERE status IN (401, 400, 413, 405)`),
    ).toBeGreaterThanOrEqual(5);
  });

  it("serves GET /api/metrics: its deliveries moved by exactly what it answered; 401 without the token", async () => {
    const scrape = async () => {
      const res = await fetch(`${url}/api/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}`, "x-request-id": "scrape-1" },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get("x-request-id")).toBe("scrape-1");
      return res.text();
    };
    const before = await scrape();
    for (const id of ["job-m1", "job-m2", "job-m3"])
      expect((await deliver(`${url}/webhooks/geonode/sub-1`, envelope(id), { secret: SECRET })).json).toEqual({
        status: "accepted",
      });
    expect((await deliver(`${url}/webhooks/geonode/sub-1`, envelope("job-m1"), { secret: SECRET })).json).toEqual({
      status: "duplicate",
    });
    expect((await deliver(`${url}/webhooks/geonode/sub-1`, envelope("job-m4"), { secret: "wrong" })).status).toBe(401);
    const after = await scrape();
    const moved = (status: string) =>
      metricValue(after, "tally_deliveries_total", { status }) -
      metricValue(before, "tally_deliveries_total", { status });
    expect(moved("accepted")).toBe(3);
    expect(moved("duplicate")).toBe(1);
    expect(moved("401")).toBe(1);
    expect(
      metricValue(after, "tally_delivery_duration_seconds_count") -
        metricValue(before, "tally_delivery_duration_seconds_count"),
    ).toBe(5);
    expect(processLabels(after)).toHaveLength(1);
    expect(after).toMatch(/^tally_queue_items\{state="ready"\} \d+$/m);

    for (const headers of [{} as Record<string, string>, { authorization: "Bearer not-the-metrics-token-0123" }]) {
      const res = await fetch(`${url}/api/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="tally-metrics"');
      expect(await res.json()).toEqual({
        error: "unauthorized",
        message: "Send Authorization: Bearer <TALLY_METRICS_TOKEN> (or the API token)",
      });
    }
    expect(
      (await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${url}/api/metrics`, { method: "POST", headers: { authorization: `Bearer ${METRICS_TOKEN}` } }))
        .status,
    ).toBe(405);
  });
});
