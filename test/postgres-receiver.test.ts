// PostgreSQL as the shared store: two of Tally's servers (what `npm start` runs) on one database,
// each receiving half of a signed load with duplicates sent to both, store every unique delivery
// exactly once (one receipt, one queue item, in one transaction with its log row); bad signatures
// change nothing but the log. Runs in the `postgres` vitest project (vitest.postgres.config.mts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";
import { startTally, type TallyServer } from "./tally-server";
import { TEST_STORE } from "./store";
import { deliver, envelope } from "./webhook-client";

const SECRET = "whsec_postgres_receiver_secret";
let t: TestDb;
const servers: TallyServer[] = [];

beforeAll(async () => {
  expect(TEST_STORE).toBe("postgres");
  t = await createTestDb();
  await db().subscription.create({
    data: { id: "sub-pg", eventType: "extract_completed", url: "http://x", secret: SECRET },
  });
  const env = {
    DATABASE_URL: t.url,
    GEONODE_SCRAPER_API_KEY: "pg-receiver-test",
    SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
    TALLY_WORKER: "off",
    TALLY_RECONCILE_INTERVAL_MINUTES: "0",
  };
  servers.push(await startTally(env), await startTally(env));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t?.cleanup();
});

describe("two servers on one PostgreSQL database", () => {
  it("store every unique signed delivery exactly once, whichever server and however often it arrives", async () => {
    const jobs = Array.from({ length: 120 }, (_, i) => `pg-job-${i}`);
    // Every job to one server, a third of them again to the other at the same moment.
    const sends = jobs.flatMap((jobId, i) => {
      const [a, b] = i % 2 ? [servers[0], servers[1]] : [servers[1], servers[0]];
      const one = deliver(`${a.url}/webhooks/geonode/sub-pg`, envelope(jobId), { secret: SECRET });
      return i % 3 === 0
        ? [one, deliver(`${b.url}/webhooks/geonode/sub-pg`, envelope(jobId), { secret: SECRET })]
        : [one];
    });
    const forged = Array.from({ length: 10 }, (_, i) =>
      deliver(`${servers[i % 2].url}/webhooks/geonode/sub-pg`, envelope(`forged-${i}`), { secret: "wrong-secret" }),
    );
    const answers = await Promise.all(sends);
    const refused = await Promise.all(forged);

    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.json.status === "accepted")).toHaveLength(jobs.length);
    expect(answers.filter((a) => a.json.status === "duplicate")).toHaveLength(40);
    expect(refused.every((r) => r.status === 401)).toBe(true);

    const receipts = await db().receipt.findMany({ select: { jobId: true } });
    const items = await db().queueItem.findMany({
      where: { kind: "process_job" },
      select: { jobId: true, dedupeKey: true, state: true },
    });
    expect(receipts.map((r) => r.jobId).sort()).toEqual([...jobs].sort());
    expect(items.map((q) => q.jobId).sort()).toEqual([...jobs].sort());
    expect(items.every((q) => q.state === "ready" && q.dedupeKey === `job:${q.jobId}`)).toBe(true);
    // Every request has its log row: 160 answered 200, 10 refused 401, none with a body stored.
    expect(await db().inboundDelivery.count({ where: { status: 200 } })).toBe(answers.length);
    expect(await db().inboundDelivery.count({ where: { status: 401 } })).toBe(10);
    expect(await db().receipt.count({ where: { jobId: { startsWith: "forged-" } } })).toBe(0);
  });

  it("answers a malformed body with 400 and stores nothing", async () => {
    const before = await db().receipt.count();
    const r = await deliver(`${servers[0].url}/webhooks/geonode/sub-pg`, "[1,2]", { secret: SECRET });
    expect(r.status).toBe(400);
    expect(await db().receipt.count()).toBe(before);
  });

  it("stores the rest of a batch when the database refuses one delivery, which alone is answered 5xx", async () => {
    // A trigger stands in for data the database refuses: the batch's one statement fails, and the
    // deliveries are written again one by one, each in a savepoint.
    await db().$executeRawUnsafe(`CREATE FUNCTION refuse_poison() RETURNS trigger AS $$
      BEGIN IF NEW."jobId" = 'pg-poison' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER refuse_poison BEFORE INSERT ON "Receipt" FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
    );
    try {
      const jobs = ["pg-poison", ...Array.from({ length: 30 }, (_, i) => `pg-batch-${i}`)];
      const answers = await Promise.all(
        jobs.map((jobId) => deliver(`${servers[0].url}/webhooks/geonode/sub-pg`, envelope(jobId), { secret: SECRET })),
      );
      expect(answers[0].status).toBeGreaterThanOrEqual(500);
      expect(answers.slice(1).map((a) => a.json.status)).toEqual(jobs.slice(1).map(() => "accepted"));
      const stored = await db().receipt.findMany({ where: { jobId: { in: jobs } }, select: { jobId: true } });
      expect(stored.map((r) => r.jobId).sort()).toEqual(jobs.slice(1).sort());
      expect(await db().queueItem.count({ where: { jobId: { in: jobs } } })).toBe(30);
      expect(await db().inboundDelivery.count({ where: { jobId: { in: jobs.slice(1) }, reason: "accepted" } })).toBe(
        30,
      );
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER refuse_poison ON "Receipt"`);
    }
    // The platform's retry then succeeds.
    expect(
      (await deliver(`${servers[0].url}/webhooks/geonode/sub-pg`, envelope("pg-poison"), { secret: SECRET })).json,
    ).toEqual({ status: "accepted" });
  });
});
