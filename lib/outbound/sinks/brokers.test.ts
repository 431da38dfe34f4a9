// The mysql, redis, rabbitmq, nats and s3 sinks through Tally's outbox (test/sink-scenarios.ts), each
// against its real service (s3: an s3rver the test starts). Runs once, on SQLite: what is under test is
// the service side; postgres-sink.test.ts runs the same scenarios on both of Tally's stores.
import { afterAll, beforeAll } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { describeSink, SINK_TEST_ENV } from "@/test/sink-scenarios";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb(SINK_TEST_ENV);
});
afterAll(() => t?.cleanup());

for (const type of ["mysql", "redis", "rabbitmq", "nats", "s3"] as const) await describeSink(type);
