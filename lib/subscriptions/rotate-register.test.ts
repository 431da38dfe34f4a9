// Registration (and its repair of drift), drift detection, and the loud failure of a rotation
// whose new secret cannot be stored: in-process against the simulator over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun } from "@/lib/operations";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { rotateAction } from "@/lib/subscriptions/actions";
import { createTestDb, type TestDb } from "@/test/db";
import { openSql } from "@/test/sql";
import { TEST_STORE } from "@/test/store";
import { checkSubscriptionDrift } from "../safety-nets/drift";
import { flushApiCalls, getPlatformClient, resetPlatformClients } from "../platform/shared-client";
import { registerSubscriptions } from "./register";
import { storeNewSecret } from "./secrets";

const PUBLIC = "http://tally.test:3000";
let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_PUBLIC_URL: PUBLIC,
    TALLY_API_RPS: "1000",
  });
});
afterAll(async () => {
  await flushApiCalls().catch(() => undefined);
  await sim?.close();
  await t?.cleanup();
});

describe("registration and drift", () => {
  it("registers the three subscriptions at Tally's receiver, then finds and repairs drift", async () => {
    const first = await registerSubscriptions("test");
    expect(first.registered).toEqual(["extract_completed", "batch_completed", "crawl_completed"]);
    const subs = await db().subscription.findMany({ omit: { secret: false } });
    expect(subs).toHaveLength(3);
    for (const s of subs) {
      expect(s.url).toBe(`${PUBLIC}/webhooks/geonode/${s.id}`);
      expect(s.platformId).toBeTruthy();
      expect(s.secret).toMatch(/^whsec_/);
    }
    expect(await checkSubscriptionDrift(getPlatformClient())).toEqual({ checked: 3, ok: 3, drift: [] });

    const [a, b, c] = subs;
    const client = getPlatformClient();
    await client.updateWebhook(String(a.platformId), { is_active: false });
    await client.updateWebhook(String(b.platformId), { url: "https://elsewhere.example/hook" });
    await client.deleteWebhook(String(c.platformId));
    const drift = await checkSubscriptionDrift(client);
    expect(drift.drift.map((d) => [d.eventType, d.problem]).sort()).toEqual(
      [
        [a.eventType, "inactive"],
        [b.eventType, "url_mismatch"],
        [c.eventType, "missing"],
      ].sort(),
    );

    const second = await registerSubscriptions("test");
    expect(second.registered).toEqual([c.eventType]);
    expect(second.repaired.sort()).toEqual([a.eventType, b.eventType].sort());
    expect((await db().subscription.findUniqueOrThrow({ where: { id: c.id } })).platformId).not.toBe(c.platformId); // same key, new webhook
    expect(await checkSubscriptionDrift(client)).toMatchObject({ ok: 3, drift: [] });
  });
});

describe("rotation whose new secret cannot be stored", () => {
  it("fails the run loudly and hands the new secret over once, in the answer only", async () => {
    const sub = await db().subscription.findFirstOrThrow({
      where: { eventType: "extract_completed" },
      omit: { secret: false },
    });
    const sql = await openSql(t.url);
    await sql.run(
      TEST_STORE === "postgres"
        ? `CREATE FUNCTION no_secret_writes() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$ LANGUAGE plpgsql;
           CREATE TRIGGER no_secret_writes BEFORE UPDATE OF secret ON "Subscription" FOR EACH ROW EXECUTE FUNCTION no_secret_writes();`
        : `CREATE TRIGGER no_secret_writes BEFORE UPDATE OF secret ON Subscription BEGIN SELECT RAISE(ABORT, 'disk full'); END;`,
    );
    try {
      const answer = await rotateAction(sub.id, "operator");
      expect(answer.status).toBe(500);
      const secret = String(answer.body.secret);
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(sub.secret);
      expect(String(answer.body.message)).toContain(`/api/subscriptions/${sub.id}/secret`);
      const run = await getRun(String(answer.body.runId));
      expect(run).toMatchObject({ kind: "rotate", state: "failed" });
      expect(run?.error).toContain("could not store it");
      expect(JSON.stringify(run)).not.toContain(secret);
      const audit = await db().auditLog.findFirstOrThrow({
        where: { action: "subscriptions.rotate" },
        orderBy: { id: "desc" },
      });
      expect(audit).toMatchObject({ ok: false, actor: "operator", target: sub.id });
      expect(String(audit.detail)).not.toContain(secret);
      expect(await db().secretRotation.count()).toBe(0);
      expect(
        (await db().subscription.findUniqueOrThrow({ where: { id: sub.id }, omit: { secret: false } })).secret,
      ).toBe(sub.secret);
    } finally {
      await sql.run(
        TEST_STORE === "postgres" ? `DROP TRIGGER no_secret_writes ON "Subscription"` : "DROP TRIGGER no_secret_writes",
      );
      await sql.close();
    }
  });
});

describe("a rotation taken for dead before it stored its secret", () => {
  it("stores nothing: the recovery's rotation supersedes it", async () => {
    const sub = await db().subscription.findFirstOrThrow({
      where: { eventType: "batch_completed" },
      omit: { secret: false },
    });
    const run = await db().operationRun.create({
      data: { id: "taken-over", kind: "rotate", state: "failed", startedBy: "operator", error: "abandoned: …" },
    });
    await expect(
      storeNewSecret({
        subscriptionId: sub.id,
        secret: "whsec_late_0123456789",
        source: "rotated",
        actor: "x",
        runId: run.id,
      }),
    ).rejects.toThrow("taken for dead");
    const after = await db().subscription.findUniqueOrThrow({ where: { id: sub.id }, omit: { secret: false } });
    expect(after.secret).toBe(sub.secret);
    expect(await db().secretRotation.count({ where: { runId: run.id } })).toBe(0);
  });
});
