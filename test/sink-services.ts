// The services the sink tests write into, each reached through a TCP proxy of the test's own (so a test
// can kill its connections or take it "down" without touching what other tests share), with a target
// of the test's own (a database, a stream, an exchange and queue, a bucket), a way to make the sink
// refuse writes and to read back what is in effect. A service that does not answer skips its tests with
// a note in capitals, unless TALLY_REQUIRE_POSTGRES=1 (CI), which makes that a failure.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import amqp from "amqplib";
import { Redis } from "ioredis";
import mysql from "mysql2/promise";
import { connect as natsConnect } from "nats";
import pg from "pg";
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import type { SinkType } from "@/lib/outbound/sink-config";
import { answers, startProxy, type Proxy } from "./tcp-proxy";
import { POSTGRES_ADMIN_URL, testDatabaseName } from "./store";

export const REQUIRE_SERVICES = process.env.TALLY_REQUIRE_POSTGRES === "1";

export type SinkService = {
  type: SinkType;
  /** What the sink keeps per event: a row per result (databases) or one message or object per event. */
  keeps: "rows" | "events";
  /** True when the sink itself may hold a duplicate that consumers drop by its id (RabbitMQ). */
  consumerDedupes: boolean;
  proxy: Proxy;
  config: Record<string, unknown>;
  /** Words the sink's error carries while it refuses writes. */
  refusal: RegExp;
  /** True when refuse() empties the sink (the stream, the bucket): what it held is gone for good. */
  refuseEmpties: boolean;
  refuse(): Promise<void>;
  allow(): Promise<void>;
  /** Databases: refuse one job's rows only (a constraint `refuse_one`), until allowJob(). */
  refuseJob?(jobId: string): Promise<void>;
  allowJob?(): Promise<void>;
  /** What is in the sink now: row keys `job|item` and event ids (databases), or event ids. */
  effect(): Promise<string[]>;
  close(): Promise<void>;
};

/** Where each service listens on this machine (s3 is started by the test itself). */
export const SERVICE_PORTS: Record<Exclude<SinkType, "s3">, number> = {
  postgres: 5432,
  mysql: 3306,
  redis: 6379,
  rabbitmq: 5672,
  nats: 4222,
};

/** Whether the type's service answers on this machine (s3 is started by the test itself). */
export async function serviceAnswers(type: SinkType): Promise<boolean> {
  if (type === "s3") return true;
  const up = await answers(SERVICE_PORTS[type]);
  if (!up && !REQUIRE_SERVICES)
    console.warn(
      `\n${type.toUpperCase()} DOES NOT ANSWER AT 127.0.0.1:${SERVICE_PORTS[type]}: ITS SINK TESTS ARE SKIPPED (TALLY_REQUIRE_POSTGRES=1 MAKES THIS A FAILURE)\n`,
    );
  return up || REQUIRE_SERVICES;
}

const uniq = (p: string) => testDatabaseName(p);

/** Where a service runs when not on this machine's default (the chaos run's --postgres-url). */
export type ServiceOptions = { postgresAdminUrl?: string };

async function postgresService(o: ServiceOptions = {}): Promise<SinkService> {
  const adminUrl = o.postgresAdminUrl ?? POSTGRES_ADMIN_URL;
  const database = uniq("tally_sink");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${database}"`);
  await admin.end();
  const at = new URL(adminUrl);
  at.pathname = `/${database}`;
  const direct = new pg.Client({ connectionString: at.toString() });
  await direct.connect();
  const proxy = await startProxy(Number(at.port || 5432), at.hostname);
  // The sink connects through the proxy with the admin URL's own credentials.
  const sinkUrl = new URL(at);
  sinkUrl.hostname = "127.0.0.1";
  sinkUrl.port = String(proxy.port);
  const table = "results";
  return {
    type: "postgres",
    keeps: "rows",
    consumerDedupes: false,
    refuseEmpties: false,
    proxy,
    config: { url: sinkUrl.toString(), table },
    refusal: /refuse/,
    async refuse() {
      for (const t of [table, `${table}_events`])
        await direct.query(`ALTER TABLE "${t}" ADD CONSTRAINT refuse CHECK (false) NOT VALID`);
    },
    async allow() {
      for (const t of [table, `${table}_events`]) await direct.query(`ALTER TABLE "${t}" DROP CONSTRAINT refuse`);
    },
    async refuseJob(jobId) {
      await direct.query(`ALTER TABLE "${table}" ADD CONSTRAINT refuse_one CHECK (job_id <> '${jobId}') NOT VALID`);
    },
    async allowJob() {
      await direct.query(`ALTER TABLE "${table}" DROP CONSTRAINT refuse_one`);
    },
    async effect() {
      const rows = await direct.query<{ k: string }>(
        `SELECT job_id || '|' || item_key AS k FROM "${table}" UNION ALL SELECT event_id FROM "${table}_events"`,
      );
      return rows.rows.map((r) => r.k);
    },
    async close() {
      await proxy.close();
      await direct.end();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await a.end();
    },
  };
}

async function mysqlService(): Promise<SinkService> {
  const database = uniq("tally_sink");
  const direct = await mysql.createConnection({ host: "127.0.0.1", port: 3306, user: "root" });
  await direct.query(`CREATE DATABASE \`${database}\``);
  await direct.query(`USE \`${database}\``);
  const proxy = await startProxy(3306);
  const table = "results";
  return {
    type: "mysql",
    keeps: "rows",
    consumerDedupes: false,
    refuseEmpties: false,
    proxy,
    config: { url: `mysql://root@127.0.0.1:${proxy.port}/${database}`, table },
    refusal: /refuse/i,
    async refuse() {
      // MariaDB checks the rows already there when a constraint is added: not those (they were delivered).
      await direct.query("SET SESSION check_constraint_checks = 0");
      try {
        for (const t of [table, `${table}_events`])
          await direct.query(`ALTER TABLE \`${t}\` ADD CONSTRAINT refuse CHECK (job_id = 'refused')`);
      } finally {
        await direct.query("SET SESSION check_constraint_checks = 1");
      }
    },
    async allow() {
      for (const t of [table, `${table}_events`]) await direct.query(`ALTER TABLE \`${t}\` DROP CONSTRAINT refuse`);
    },
    async refuseJob(jobId) {
      await direct.query(`ALTER TABLE \`${table}\` ADD CONSTRAINT refuse_one CHECK (job_id <> '${jobId}')`);
    },
    async allowJob() {
      await direct.query(`ALTER TABLE \`${table}\` DROP CONSTRAINT refuse_one`);
    },
    async effect() {
      const [rows] = await direct.query(
        `SELECT CONCAT(job_id, '|', item_key) AS k FROM \`${table}\` UNION ALL SELECT event_id FROM \`${table}_events\``,
      );
      return (rows as { k: string }[]).map((r) => r.k);
    },
    async close() {
      await proxy.close();
      await direct.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await direct.end();
    },
  };
}

async function redisService(): Promise<SinkService> {
  const stream = uniq("tally:sink");
  const direct = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
  await direct.connect();
  const proxy = await startProxy(6379);
  return {
    type: "redis",
    keeps: "events",
    consumerDedupes: false,
    refuseEmpties: true,
    proxy,
    config: { url: `redis://127.0.0.1:${proxy.port}`, stream },
    refusal: /WRONGTYPE/,
    async refuse() {
      await direct.set(stream, "not a stream");
    },
    async allow() {
      await direct.del(stream);
    },
    async effect() {
      const entries = await direct.xrange(stream, "-", "+");
      return entries.map(([, fields]) => fields[fields.indexOf("id") + 1]);
    },
    async close() {
      await proxy.close();
      const keys = await direct.keys(`${stream}*`);
      if (keys.length) await direct.del(...keys);
      direct.disconnect();
    },
  };
}

async function rabbitmqService(): Promise<SinkService> {
  const name = uniq("tally-sink");
  const conn = await amqp.connect("amqp://guest:guest@127.0.0.1:5672");
  const ch = await conn.createChannel();
  await ch.assertExchange(name, "direct", { durable: false, autoDelete: false });
  await ch.assertQueue(name, { durable: true });
  await ch.bindQueue(name, name, "results");
  const seen: string[] = [];
  const proxy = await startProxy(5672);
  return {
    type: "rabbitmq",
    keeps: "events",
    consumerDedupes: true,
    refuseEmpties: false,
    proxy,
    config: { url: `amqp://guest:guest@127.0.0.1:${proxy.port}`, exchange: name, routingKey: "results" },
    refusal: /unroutable/,
    async refuse() {
      await ch.unbindQueue(name, name, "results");
    },
    async allow() {
      await ch.bindQueue(name, name, "results");
    },
    async effect() {
      for (let m = await ch.get(name, { noAck: true }); m; m = await ch.get(name, { noAck: true })) {
        if (m.properties.deliveryMode !== 2) throw new Error("a message was not persistent");
        seen.push(String(m.properties.messageId));
      }
      return [...seen];
    },
    async close() {
      await proxy.close();
      await ch.deleteQueue(name);
      await ch.deleteExchange(name);
      await conn.close();
    },
  };
}

async function natsService(): Promise<SinkService> {
  const subject = uniq("tally.sink");
  const stream = subject.replaceAll(".", "_");
  const nc = await natsConnect({ servers: "127.0.0.1:4222" });
  const jsm = await nc.jetstreamManager();
  // A duplicate window (1 h, in ns) longer than any retry here: a repeat in the stream is a real double.
  const create = () => jsm.streams.add({ name: stream, subjects: [subject], duplicate_window: 3_600_000_000_000 });
  await create();
  const proxy = await startProxy(4222);
  return {
    type: "nats",
    keeps: "events",
    consumerDedupes: false,
    refuseEmpties: true,
    proxy,
    config: { url: `nats://127.0.0.1:${proxy.port}`, subject },
    refusal: /no responders|503|timeout|TIMEOUT/i,
    async refuse() {
      await jsm.streams.delete(stream);
    },
    async allow() {
      await create();
    },
    async effect() {
      const info = await jsm.streams.info(stream);
      const ids: string[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
        const m = await jsm.streams.getMessage(stream, { seq });
        ids.push(String(m.header?.get("Nats-Msg-Id")));
      }
      return ids;
    },
    async close() {
      await proxy.close();
      await jsm.streams.delete(stream).catch(() => false);
      await nc.close();
    },
  };
}

async function s3Service(): Promise<SinkService> {
  // In memory where the machine has it, like an S3 that is not this machine's disk: on disk, the
  // server's thousands of small files wait on the same disk as everything else the machine runs.
  const dir = mkdtempSync(path.join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "tally-s3-"));
  const server = spawn(process.execPath, ["test/s3-server.mjs", dir], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once("data", (d: Buffer) => resolve(Number(String(d).trim())));
    server.once("exit", (code) => reject(new Error(`test/s3-server.mjs exited with ${code}`)));
  });
  const bucket = "tally-sink";
  const endpoint = `http://127.0.0.1:${port}`;
  const direct = new S3Client({
    region: "us-east-1",
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await direct.send(new CreateBucketCommand({ Bucket: bucket }));
  const proxy = await startProxy(port);
  const prefix = "tally/events";
  return {
    type: "s3",
    keeps: "events",
    consumerDedupes: false,
    refuseEmpties: true,
    proxy,
    config: {
      endpoint: `http://127.0.0.1:${proxy.port}`,
      region: "us-east-1",
      bucket,
      prefix,
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      forcePathStyle: true,
    },
    refusal: /bucket/i,
    async refuse() {
      // A bucket must be empty to be deleted.
      const listed = await direct.send(new ListObjectsV2Command({ Bucket: bucket }));
      const objects = (listed.Contents ?? []).map((o) => ({ Key: String(o.Key) }));
      if (objects.length > 0)
        await direct.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects } }));
      await direct.send(new DeleteBucketCommand({ Bucket: bucket }));
    },
    async allow() {
      await direct.send(new CreateBucketCommand({ Bucket: bucket }));
    },
    async effect() {
      const out = await direct.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
      return (out.Contents ?? []).map((o) => path.basename(String(o.Key), ".json"));
    },
    async close() {
      await proxy.close();
      direct.destroy();
      if (server.exitCode === null)
        await new Promise<void>((resolve) => {
          server.once("exit", () => resolve());
          server.kill("SIGTERM");
        });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const SERVICES: Record<SinkType, (o?: ServiceOptions) => Promise<SinkService>> = {
  postgres: postgresService,
  mysql: mysqlService,
  redis: redisService,
  rabbitmq: rabbitmqService,
  nats: natsService,
  s3: s3Service,
};
