// The postgres sink through Tally's outbox on both of Tally's stores (test/sink-scenarios.ts), and what
// a save refuses: a bad config (400 with the field), a sink that cannot be reached or refuses its
// table (400 with the sink's own reason), a private address not allowed; nothing saved.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setConfigForTests } from "@/lib/config";
import { db } from "@/lib/db";
import { TallyError } from "@/lib/errors";
import { createDestinationSchema } from "@/lib/outbound/contracts";
import { createDestination } from "@/lib/outbound/destinations";
import { createTestDb, type TestDb } from "@/test/db";
import { describeSink, SINK_TEST_ENV } from "@/test/sink-scenarios";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb(SINK_TEST_ENV);
});
afterAll(() => t?.cleanup());

await describeSink("postgres");

describe("saving a sink", () => {
  const refused = async (body: unknown) => {
    const parsed = createDestinationSchema.safeParse(body);
    if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    const err = await createDestination(parsed.data, "test").then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(TallyError);
    return (err as TallyError).message;
  };

  it("refuses a bad config field by field, and sink fields on a webhook", async () => {
    expect(
      await refused({ type: "postgres", config: { url: "http://x", table: "t" }, events: ["job.stored"] }),
    ).toMatch(/config.url: url must be a postgres/);
    expect(
      await refused({ type: "postgres", config: { url: "postgres://h/db", table: "x; drop" }, events: ["job.stored"] }),
    ).toMatch(/config.table/);
    expect(await refused({ type: "s3", config: { bucket: "b" }, events: ["job.stored"] })).toMatch(/config.region/);
    expect(await refused({ type: "redis", url: "https://a.example", events: ["job.stored"] })).toMatch(/takes config/);
    expect(await refused({ url: "https://a.example", config: {}, events: ["job.stored"] })).toMatch(/config/);
    expect(await refused({ type: "kafka", config: {}, events: ["job.stored"] })).toMatch(/type must be one of/);
    expect(await db().destination.count({ where: { type: { not: "webhook" }, enabled: true } })).toBeLessThanOrEqual(1);
  });

  it("answers the sink's own reason when it cannot connect or refuses, and saves nothing", async () => {
    const before = await db().destination.count();
    expect(
      await refused({
        type: "postgres",
        config: { url: "postgresql://postgres@127.0.0.1:1/nothing", table: "t" },
        events: ["job.stored"],
      }),
    ).toMatch(/The postgres sink refused its config: .*ECONNREFUSED/);
    expect(
      await refused({
        type: "postgres",
        config: { url: "postgresql://postgres@127.0.0.1:5432/no_such_database_here", table: "t" },
        events: ["job.stored"],
      }),
    ).toMatch(/does not exist/);
    setConfigForTests({ ...t.config, TALLY_ALLOW_PRIVATE_DESTINATIONS: undefined });
    try {
      expect(
        await refused({
          type: "redis",
          config: { url: "redis://:hunter2hunter2@127.0.0.1:6379", stream: "s" },
          events: ["job.stored"],
        }),
      ).toMatch(/private, loopback/);
    } finally {
      setConfigForTests(t.config);
    }
    expect(await db().destination.count()).toBe(before);
  });
});
