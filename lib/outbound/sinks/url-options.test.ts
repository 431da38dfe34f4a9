// Options in a sink's URL that reach files, sockets or connectors (issue 38): refused on save with a 400
// naming the field and the option, before any driver reads them, so no file is opened (pg reads
// sslrootcert, sslcert and sslkey itself: /dev/zero would hang it) and neither the answer nor the audit
// entry says which files exist. The allowed options still work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { BadRequest } from "@/lib/errors";
import { createDestinationAction } from "@/lib/outbound/actions";
import type { SinkType } from "@/lib/outbound/sink-config";
import { createTestDb, type TestDb } from "@/test/db";

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb({
    TALLY_FORWARD_TIMEOUT_MS: "2000",
    TALLY_PUBLIC_URL: "https://tally.example",
    TALLY_ALLOW_PRIVATE_DESTINATIONS: "127.0.0.1",
  });
});
afterAll(() => t?.cleanup());

const MISSING = "/nonexistent/tally-probe.pem";

const HOSTILE: Array<[SinkType, string, string, Record<string, unknown>]> = [
  ["postgres", `postgresql://u@db.example/x?sslrootcert=${MISSING}`, "sslrootcert", { table: "t" }],
  ["postgres", "postgresql://u@db.example/x?sslrootcert=/dev/zero", "sslrootcert", { table: "t" }],
  ["postgres", `postgresql://u@db.example/x?sslcert=${MISSING}&sslmode=require`, "sslcert", { table: "t" }],
  ["postgres", `postgresql://u@db.example/x?sslkey=${MISSING}`, "sslkey", { table: "t" }],
  ["postgres", "postgresql://u@db.example/x?host=/run/postgresql", "host", { table: "t" }],
  ["postgres", "postgresql://u@db.example/x?options=-c%20search_path%3Devil", "options", { table: "t" }],
  ["mysql", "mysql://u@db.example/x?socketPath=/run/mysqld/mysqld.sock", "socketPath", { table: "t" }],
  ["mysql", 'mysql://u@db.example/x?flags=["+LOCAL_FILES"]', "flags", { table: "t" }],
  ["mysql", "mysql://u@db.example/x?charset=gbk", "charset", { table: "t" }],
  ["redis", "redis://redis.example:6379?Connector=&path=/run/redis.sock", "Connector", { stream: "s" }],
  ["redis", "redis://redis.example:6379?path=/run/redis.sock", "path", { stream: "s" }],
  ["redis", "redis://redis.example:6379?sentinels=x", "sentinels", { stream: "s" }],
  ["rabbitmq", "amqp://mq.example?locale=x", "locale", { exchange: "", routingKey: "k" }],
  ["nats", "nats://nats.example:4222?tls=1", "tls", { subject: "s" }],
];

async function refusal(type: SinkType, config: Record<string, unknown>) {
  const before = await db().destination.count();
  const err = await createDestinationAction({ type, config, events: ["job.stored"] }, "test").then(
    () => null,
    (e: unknown) => e,
  );
  expect(await db().destination.count()).toBe(before);
  return err;
}

describe("a sink URL's options", () => {
  for (const [type, url, option, rest] of HOSTILE)
    it(`${type} ${url.slice(url.indexOf("?"))} is refused on save, naming the option, reading nothing`, async () => {
      const err = await refusal(type, { url, ...rest });
      expect(err).toBeInstanceOf(BadRequest);
      const message = (err as Error).message;
      expect(message).toMatch(new RegExp(`^Invalid body: config\\.url: .*"${option}"`));
      expect(message).not.toMatch(/ENOENT|EACCES|no such file|nonexistent|\/dev\/zero/);
      const audit = await db().auditLog.findFirst({
        where: { action: "destinations.create" },
        orderBy: { id: "desc" },
      });
      expect(audit?.ok).toBe(false);
      expect(JSON.stringify(audit)).not.toMatch(/ENOENT|EACCES|nonexistent|\/dev\/zero/);
    });

  it("refuses a percent-encoded host (pg and mysql2 decode it into a Unix socket path)", async () => {
    for (const [type, url] of [
      ["postgres", "postgresql://u@%2Frun%2Fpostgresql/x"],
      ["mysql", "mysql://u@%2Frun%2Fmysqld%2Fmysqld.sock/x"],
    ] as const) {
      const err = await refusal(type, { url, table: "t" });
      expect((err as Error).message).toBe(
        "Invalid body: config.url: url host must be a name or an address (no percent-encoding)",
      );
    }
  });

  it("allows the harmless ones (PostgreSQL's sslmode, RabbitMQ's heartbeat) through to the connection", async () => {
    // Nothing listens on port 9 here: the refusal is the connection's, not the URL's.
    for (const [type, config] of [
      ["postgres", { url: "postgresql://u@127.0.0.1:9/x?sslmode=disable", table: "t" }],
      ["rabbitmq", { url: "amqp://127.0.0.1:9?heartbeat=10", exchange: "", routingKey: "k" }],
    ] as const) {
      const err = await refusal(type, config);
      expect((err as Error).message).toMatch(new RegExp(`^The ${type} sink refused its config: .*ECONNREFUSED`));
    }
  });
});
