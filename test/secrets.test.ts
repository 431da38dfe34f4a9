// Secrets never reach logs, API answers (except the one-time rotation answer) or pages: register the
// three subscriptions, rotate one through Tally, set one rotated elsewhere, let deliveries flow, then
// grep everything Tally printed and served for every secret it holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulator } from "@/lib/simulator";
import { openSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const API_KEY = "secret-test-api-key-0123456789";
const ENV_SECRET = "env-webhook-secret-abcdefghij";
let tally: TallyServer;
let sim: { url: string; close(): Promise<void> };
const served: string[] = [];
const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" };

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(tally.url + path, {
    method,
    headers: auth,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  served.push(text);
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function waitRun(runId: unknown) {
  for (let i = 0; i < 100; i++) {
    const r = await call("GET", `/api/operations/${String(runId)}`);
    if (r.json.state !== "running") return r.json;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error("run did not finish");
}

async function storedSecrets(): Promise<string[]> {
  const sql = await openSql(tally.dbUrl);
  const rows = await sql.all<{ secret: string | null; previousSecret: string | null }>(
    `SELECT secret, previousSecret FROM "Subscription"`,
  );
  await sql.close();
  return rows.flatMap((r) => [r.secret, r.previousSecret]).filter((s): s is string => !!s);
}

beforeAll(async () => {
  sim = await createSimulator({ mode: "test", seed: 5, apiKey: API_KEY, config: { jobDurationMs: [50, 150] } }).listen(
    0,
  );
  tally = await startTally({
    GEONODE_SCRAPER_API_KEY: API_KEY,
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_WEBHOOK_SECRET: ENV_SECRET,
    TALLY_ROTATION_SETTLE_SECONDS: "0",
    TALLY_LOG_LEVEL: "debug",
  });
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
});

describe("secrets", () => {
  const oneTime: string[] = [];

  it("register, rotate and set-elsewhere work, and only the rotation answer carries a secret, once", async () => {
    const reg = await call("POST", "/api/subscriptions/register");
    expect(reg.status).toBeLessThan(300);
    const list = await call("GET", "/api/subscriptions");
    const items = list.json.items as { id: string; eventType: string; secretLast4: string }[];
    expect(items.map((i) => i.eventType).sort()).toEqual(["batch_completed", "crawl_completed", "extract_completed"]);
    for (const i of items) expect(i.secretLast4).toMatch(/^.{4}$/);

    const rotated = await call("POST", `/api/subscriptions/${items[0].id}/rotate`);
    expect(rotated.status).toBe(202);
    expect(typeof rotated.json.secret).toBe("string");
    oneTime.push(String(rotated.json.secret));
    await waitRun(rotated.json.runId);

    const elsewhere = "whsec_" + Buffer.from("rotated-in-the-platform-dashboard").toString("base64");
    oneTime.push(elsewhere);
    const set = await call("POST", `/api/subscriptions/${items[1].id}/secret`, { secret: elsewhere });
    expect(set.status).toBe(202);
    expect(JSON.stringify(set.json)).not.toContain(elsewhere);
    await waitRun(set.json.runId);

    // traffic signed with the stored secrets
    for (let i = 0; i < 5; i++) await call("POST", "/api/jobs", { kind: "extract", url: `https://example.com/s/${i}` });
    await new Promise((r) => setTimeout(r, 1500));
  });

  it("no secret appears in the server's output, in later API answers or in any page", async () => {
    const secrets = [
      ...new Set([
        ...(await storedSecrets()),
        ...oneTime.slice(1),
        ENV_SECRET,
        API_KEY,
        TEST_ENV.TALLY_API_TOKEN,
        TEST_ENV.TALLY_OPERATOR_PASSWORD,
        TEST_ENV.TALLY_SESSION_SECRET,
      ]),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(9);
    const pages: string[] = [];
    for (const p of ["/", "/subscriptions", "/settings", "/deliveries", "/operations", "/jobs", "/dead-letters"]) {
      pages.push(await (await fetch(tally.url + p, { headers: auth })).text());
    }
    pages.push(JSON.stringify((await call("GET", "/api/subscriptions")).json));
    const answersAfterRotation = served.filter((s) => !s.includes('"secret"'));
    expect(answersAfterRotation.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(tally.output(), "server output").not.toContain(secret);
      for (const page of pages) expect(page).not.toContain(secret);
      for (const a of answersAfterRotation) expect(a).not.toContain(secret);
    }
  });
});
