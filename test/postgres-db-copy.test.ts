// npm run db:copy: a SQLite Tally seeded by a real pipeline run (simulator, queue, worker) plus direct
// inserts for every other table is copied into a fresh, migrated PostgreSQL database. Every model
// table arrives with the same rows, field by field as Prisma reads them on each store (dates to the
// millisecond, booleans, JSON text, NULLs); each autoincrement table takes a new row; Tally started
// on the copy lists the copied jobs. Refusals write nothing; a failure mid-copy leaves the target empty.
// Runs in the `postgres` vitest project (vitest.postgres.config.mts).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { db, dbReady, disconnectAll } from "@/lib/db";
import { submitJob } from "@/lib/jobs/submit";
import { setupPipeline } from "@/lib/jobs/jobs.test-util";
import { copyDatabase, type CopyReport } from "@/lib/db-copy";
import { toTimestamp } from "@/lib/db-copy/convert";
import { adminQuery, postgresUrl, testDatabaseName, TEST_STORE } from "./store";
import { runToExit, startTally, TEST_ENV } from "./tally-server";

const MODELS = [...readFileSync("prisma/schema.prisma", "utf8").matchAll(/^model (\w+) \{/gm)].map((m) => m[1]).sort();
const dir = mkdtempSync(path.join(tmpdir(), "tally-db-copy-"));
const source = path.join(dir, "source.db");
const sourceUrl = `file:${source}`;
const databases: string[] = [];

// A known instant in the three forms a SQLite Tally may hold: Prisma's ISO text, integer ms, SQLite's own text.
const INSTANT = new Date("2026-11-30T23:59:58.123Z");
const JSON_TEXT = '{"b":[1,2,{"c":"ü\\"q"}],"a":null}';

async function newTarget(migrated = true): Promise<string> {
  const name = testDatabaseName("tally_copy");
  databases.push(name);
  await adminQuery(
    migrated ? `CREATE DATABASE "${name}" TEMPLATE "${inject("templateDb")}"` : `CREATE DATABASE "${name}"`,
  );
  return postgresUrl(name);
}

async function pgQuery<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<T>(sql, params)).rows;
  } finally {
    await c.end();
  }
}

const counts = async (url: string) =>
  Object.fromEntries(
    await Promise.all(
      MODELS.map(async (m) => [
        m,
        Number((await pgQuery<{ n: string }>(url, `SELECT count(*) AS n FROM "${m}"`))[0].n),
      ]),
    ),
  );

/** A real pipeline run on the SQLite file: jobs of every kind submitted, settled, queued, stored. */
async function seedByPipeline() {
  const p = await setupPipeline({ DATABASE_URL: sourceUrl });
  try {
    for (const req of [
      { kind: "extract" as const, url: "https://example.com/a", formats: ["markdown" as const, "html" as const] },
      { kind: "batch" as const, urls: ["https://example.com/b/0", "https://example.com/b/1"] },
      { kind: "crawl" as const, url: "https://example.com/", depth: 2, limit: 5 },
    ]) {
      const { jobId } = await submitJob(req, { actor: "test" });
      await p.settleAndProcess(req.kind, jobId);
    }
  } finally {
    await p.close();
  }
}

/** The tables a pipeline run does not reach, written through Prisma on SQLite. */
async function seedTheRest() {
  setConfigForTests(parseConfig({ NODE_ENV: "test", DATABASE_URL: sourceUrl }));
  await dbReady();
  const d = db();
  await d.subscription.create({
    data: {
      id: "sub-a",
      eventType: "extract_completed",
      url: "http://x/a",
      secret: "whsec_a",
      previousSecret: "whsec_old",
      previousSecretExpiresAt: INSTANT,
      rotatedAt: INSTANT,
    },
  });
  await d.subscription.create({
    data: { id: "sub-b", eventType: "batch_completed", url: "http://x/b", isActive: false, description: null },
  });
  await d.run.create({
    data: {
      id: "run-a",
      name: "daily list",
      state: "completed",
      total: 2,
      batchSize: 1000,
      request: JSON.stringify({ formats: ["markdown"] }),
      stored: 1,
      failed: 1,
      chunksTotal: 1,
      chunksSubmitted: 1,
      platformCalls: 3,
      createdBy: "operator",
      startedAt: INSTANT,
      completedAt: INSTANT,
      // Issue 50: the cap that stopped it, and by how much.
      maxTokens: 1,
      tokensCharged: 1,
      capReason: "maxTokens 1 reached (1 charged): no further chunk or rung is submitted",
      capHit: "run",
      capLimit: 1,
      capUsed: 1,
      capWanted: 1,
    },
  });
  await d.collection.create({
    data: {
      id: "col-a",
      name: "daily prices",
      urls: "https://example.com/r/0\nhttps://example.com/r/1",
      urlCount: 2,
      schedule: "0 2 * * *",
      timezone: "Asia/Jakarta",
      ignorePatterns: JSON.stringify(["Fetched at \\S+"]),
      nextRunAt: INSTANT,
      createdBy: "operator",
    },
  });
  await d.collectionTick.create({
    data: { id: "tick-a", collectionId: "col-a", scheduledFor: INSTANT, outcome: "skipped", reason: "run still going" },
  });
  await d.urlChange.create({
    data: {
      runId: "run-a",
      seq: 0,
      url: "https://example.com/r/0",
      change: "changed",
      resultId: 1,
      previousResultId: 2,
    },
  });
  const chunk = await d.runChunk.create({
    data: {
      runId: "run-a",
      seq: 0,
      size: 2,
      firstUrl: "https://example.com/r/0",
      state: "settled",
      jobId: "j-run",
      postAttempts: 1,
      postedAt: INSTANT,
      submittedAt: INSTANT,
      settledAt: INSTANT,
    },
  });
  await d.runUrl.createMany({
    data: [
      {
        runId: "run-a",
        position: 0,
        url: "https://example.com/r/0",
        state: "stored",
        attempts: 1,
        chunkId: chunk.id,
        jobId: "j-run",
        itemKey: "0",
        storedAt: INSTANT,
      },
      {
        runId: "run-a",
        position: 1,
        url: "https://example.com/r/1",
        state: "failed",
        attempts: 1,
        chunkId: chunk.id,
        jobId: "j-run",
        itemKey: "1",
        errorCode: "HTTP_404",
        errorMessage: "not found",
      },
    ],
  });
  await d.secretRotation.create({
    data: { subscriptionId: "sub-a", source: "rotated", actor: "operator", at: INSTANT, runId: "run-1" },
  });
  await d.receipt.create({
    data: {
      jobId: "j-raw",
      eventType: "extract_completed",
      deliveryId: "dl-1",
      subscriptionId: "sub-a",
      receivedAt: INSTANT,
    },
  });
  await d.inboundDelivery.create({
    data: {
      subscriptionId: "sub-a",
      deliveryId: "dl-1",
      eventType: "extract_completed",
      jobId: "j-x",
      status: 401,
      reason: "bad signature",
      latencyMs: 3,
      bodyBytes: 512,
    },
  });
  await d.deadLetter.create({
    data: {
      jobId: "j-dead",
      kind: "process_job",
      errorCode: "boom",
      errorMessage: "it broke",
      attempts: 10,
      resolvedAt: INSTANT,
    },
  });
  await d.platformDelivery.create({
    data: { id: "pd-1", webhookId: "wh-1", status: "failed", httpStatus: 401, createdAt: INSTANT, deliveredAt: null },
  });
  await d.operationRun.create({
    data: {
      id: "run-1",
      kind: "reconcile",
      state: "succeeded",
      params: JSON_TEXT,
      summary: JSON_TEXT,
      startedBy: "operator",
      finishedAt: INSTANT,
    },
  });
  await d.apiCallMinute.create({
    data: { minute: INSTANT, endpoint: "status", purpose: "poll sweep", answer: "429", count: 7 },
  });
  await d.alertState.create({
    data: {
      rule: "dead_letters",
      state: "firing",
      since: INSTANT,
      lastNotifiedAt: INSTANT,
      summary: "1 open",
      details: JSON_TEXT,
      evaluatedAt: INSTANT,
    },
  });
  const ev = await d.alertEvent.create({
    data: { rule: "dead_letters", state: "firing", summary: "1 open", details: JSON_TEXT, startedAt: INSTANT },
  });
  await d.alertNotification.create({
    data: {
      eventId: ev.id,
      channel: "webhook",
      status: "failed",
      attempts: 8,
      lastStatusCode: 500,
      lastError: "boom",
      nextAttemptAt: null,
    },
  });
  await d.reconcileWatermark.create({ data: { kind: "extract", createdFrom: INSTANT, lastFullScanAt: INSTANT } });
  await d.scheduleLease.create({
    data: { name: "reconcile", lastRunAt: INSTANT, holder: "test-host:1", lockedUntil: INSTANT },
  });
  await d.platformBudget.create({
    data: {
      key: "http://127.0.0.1:4010",
      nextAt: 1_764_560_000_000_000n,
      granted: 3,
      pausedUntil: 0n,
      downSince: 1_764_560_000_000n,
      downFailureAt: 1_764_560_004_000n,
      downFailures: 6,
      downBy: "tally-1:4242:ab12cd",
      downReason: "GET /v1/extract/{job_id} → 503: Service temporarily unavailable",
      probeAt: 1_764_560_006_000n,
      probeBy: "tally-2:77:ef34ab#3",
      probeUntil: 1_764_560_040_000n,
      upAt: 1_764_559_000_000n,
      upBy: "tally-2:77:ef34ab",
    },
  });
  await d.loginThrottle.create({ data: { key: "ip:10.0.0.1", failures: 2, windowStart: 1_764_560_000_000n } });
  await d.bodySweepMark.create({ data: { key: "a".repeat(64), markedAt: 1_764_560_000_000n } });
  await d.user.create({
    data: {
      id: "u-1",
      email: "copy@example.com",
      name: "Copy",
      role: "operator",
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
      disabledAt: INSTANT,
    },
  });
  await d.session.create({
    data: {
      id: "s".repeat(64),
      userId: "u-1",
      clientAddress: "10.0.0.1",
      userAgent: null,
      expiresAt: INSTANT,
      revokedAt: INSTANT,
    },
  });
  await d.apiToken.create({
    data: {
      id: "tok-1",
      name: "copy-ci",
      role: "viewer",
      hash: "h".repeat(64),
      last4: "abcd",
      userId: "u-1",
      createdBy: "copy@example.com",
      expiresAt: null,
      lastUsedAt: INSTANT,
    },
  });
  await d.destination.create({
    data: {
      id: "dst-1",
      url: "http://sink",
      events: "job.stored",
      secret: "whsec_dst",
      secretLast4: "_dst",
      enabled: false,
      disabledAt: INSTANT,
    },
  });
  const od = await d.outboundDelivery.create({
    data: {
      destinationId: "dst-1",
      eventId: "evt-1",
      eventType: "job.stored",
      jobId: "j-x",
      outcome: "stored",
      retryUntil: INSTANT,
    },
  });
  await d.outboundAttempt.create({
    data: { deliveryId: od.id, destinationId: "dst-1", attempt: 1, ok: false, statusCode: 500, latencyMs: 12 },
  });
  await d.outboundAttempt.create({
    data: { deliveryId: od.id, destinationId: "dst-1", attempt: 2, ok: true, statusCode: 200, latencyMs: 9 },
  });
  await d.collectionRung.create({ data: { collectionId: "col-rung", url: "https://x/rung", rung: 2 } });
  // Past 2^32: the census's byte counts are BIGINT on both stores.
  await d.bodyCensus.create({
    data: {
      id: 1,
      countedAt: INSTANT,
      objects: 3,
      storedBytes: 5_000_000_123n,
      referenced: 2,
      distinctBytes: 7_000_000_000n,
      rowsBytes: 9_000_000_000n,
    },
  });
  await disconnectAll();
  setConfigForTests(undefined);
  // Rows as older code or SQLite itself wrote them: integer-ms and zone-less dates, 0/1 booleans.
  const raw = new Database(source);
  raw
    .prepare(`INSERT INTO AuditLog (at, actor, action, detail, ok) VALUES (?, 'raw', 'raw.ms', ?, 0)`)
    .run(INSTANT.getTime(), JSON_TEXT);
  raw
    .prepare(
      `INSERT INTO AuditLog (at, actor, action, detail, ok) VALUES ('2026-11-30 23:59:58', 'raw', 'raw.sqlite-text', NULL, 1)`,
    )
    .run();
  raw
    .prepare(
      `INSERT INTO Job (id, kind, errorRetryable, nextPollAt, createdAt, updatedAt) VALUES ('j-raw', 'extract', 0, ?, '2026-11-30 23:59:58.123', ?)`,
    )
    .run(INSTANT.getTime(), "2026-11-30T23:59:58.123+00:00");
  raw.close();
}

const empty = (c: Record<string, number>) => Object.values(c).every((n) => n === 0);

let report: CopyReport;
let target: string;
const printed: string[] = [];

beforeAll(async () => {
  expect(TEST_STORE).toBe("postgres");
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: sourceUrl },
    stdio: "pipe",
  });
  await seedByPipeline();
  await seedTheRest();
  target = await newTarget();
  report = await copyDatabase({ from: sourceUrl, to: target, batchSize: 7, print: (l) => printed.push(l) });
}, 120_000);

afterAll(async () => {
  await disconnectAll();
  setConfigForTests(undefined);
  for (const name of databases) await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  rmSync(dir, { recursive: true, force: true });
});

/** Every row of a model as Prisma reads it on the store `url` names, secrets included, in key order. */
async function rowsOf(url: string, model: string): Promise<unknown[]> {
  setConfigForTests(parseConfig({ NODE_ENV: "test", DATABASE_URL: url }));
  await dbReady();
  const delegate = Reflect.get(db(), model[0].toLowerCase() + model.slice(1)) as {
    findMany(a?: object): Promise<Array<Record<string, unknown>>>;
  };
  const omit =
    model === "Subscription"
      ? { secret: false, previousSecret: false }
      : model === "Destination"
        ? { secret: false }
        : undefined;
  const rows = await delegate.findMany(omit ? { omit } : {});
  // The primary key, whatever the model calls it (id, jobId, key, name, kind, or minute + endpoint + purpose + answer).
  const key = (r: Record<string, unknown>) =>
    JSON.stringify(
      "id" in r
        ? r.id
        : "jobId" in r
          ? r.jobId
          : "key" in r
            ? r.key
            : "name" in r
              ? r.name
              : "kind" in r
                ? r.kind
                : [r.minute, r.endpoint, r.purpose, r.answer],
    );
  return rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

describe("db:copy from SQLite to PostgreSQL", () => {
  it("copies every model table of prisma/schema.prisma, each seeded with rows, and the counts agree", async () => {
    expect(report.ok).toBe(true);
    expect(report.tables.map((t) => t.table).sort()).toEqual(MODELS);
    for (const t of report.tables) {
      expect(t.source, `${t.table} was not seeded`).toBeGreaterThan(0);
      expect(t.target).toBe(t.source);
    }
    expect(await counts(target)).toEqual(Object.fromEntries(report.tables.map((t) => [t.table, t.source])));
    // Parents before children, and the stranger's view: progress per table and the summary.
    const order = report.tables.map((t) => t.table);
    expect(order.indexOf("Subscription")).toBeLessThan(order.indexOf("SecretRotation"));
    expect(order.indexOf("Destination")).toBeLessThan(order.indexOf("OutboundDelivery"));
    expect(order.indexOf("OutboundDelivery")).toBeLessThan(order.indexOf("OutboundAttempt"));
    expect(printed.join("\n")).toMatch(/SecretRotation: \d+ rows in .* s; next id \d+/);
    expect(printed.join("\n")).toMatch(/copied [\d,]+ rows in .* rows\/s\); committed\./);
  });

  it("keeps every field as Prisma reads it: dates to the millisecond, booleans, JSON text, NULLs", async () => {
    for (const model of MODELS) {
      const before = await rowsOf(sourceUrl, model);
      const after = await rowsOf(target, model);
      expect(after, model).toEqual(before);
    }
    await disconnectAll();
    setConfigForTests(undefined);
    // The raw forms, checked on PostgreSQL's own terms.
    const audit = await pgQuery<{ action: string; at: string; ok: boolean; detail: string | null }>(
      target,
      `SELECT action, to_char("at", 'YYYY-MM-DD HH24:MI:SS.MS') AS at, ok, detail FROM "AuditLog" WHERE actor = 'raw' ORDER BY id`,
    );
    expect(audit).toEqual([
      { action: "raw.ms", at: "2026-11-30 23:59:58.123", ok: false, detail: JSON_TEXT },
      { action: "raw.sqlite-text", at: "2026-11-30 23:59:58.000", ok: true, detail: null },
    ]);
    const [job] = await pgQuery<Record<string, unknown>>(
      target,
      `SELECT "errorRetryable", "nextPollAt"::text AS n, "createdAt"::text AS c, "updatedAt"::text AS u, url FROM "Job" WHERE id = 'j-raw'`,
    );
    expect(job).toEqual({
      errorRetryable: false,
      n: "2026-11-30 23:59:58.123",
      c: "2026-11-30 23:59:58.123",
      u: "2026-11-30 23:59:58.123",
      url: null,
    });
    const [sub] = await pgQuery<{ isActive: boolean }>(
      target,
      `SELECT "isActive" FROM "Subscription" WHERE id = 'sub-b'`,
    );
    expect(sub.isActive).toBe(false);
  });

  it("advances every sequence: a new row goes into each autoincrement table after the copied ones", async () => {
    const serial = await pgQuery<{ table_name: string }>(
      target,
      `SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_default LIKE 'nextval(%' ORDER BY 1`,
    );
    const inserts: Record<string, string> = {
      AlertEvent: `INSERT INTO "AlertEvent" (rule, state, summary, details, "startedAt") VALUES ('r', 'firing', 's', '{}', now()) RETURNING id`,
      AlertNotification: `INSERT INTO "AlertNotification" ("eventId", channel, "updatedAt") SELECT min(id), 'slack', now() FROM "AlertEvent" RETURNING id`,
      AuditLog: `INSERT INTO "AuditLog" (actor, action) VALUES ('t', 'after.copy') RETURNING id`,
      DeadLetter: `INSERT INTO "DeadLetter" (kind, "errorMessage", "updatedAt") VALUES ('k', 'm', now()) RETURNING id`,
      InboundDelivery: `INSERT INTO "InboundDelivery" (status, "latencyMs", "bodyBytes") VALUES (200, 1, 1) RETURNING id`,
      JobEvent: `INSERT INTO "JobEvent" ("jobId", type) VALUES ('j-raw', 'note') RETURNING id`,
      OutboundAttempt: `INSERT INTO "OutboundAttempt" ("deliveryId", "destinationId", attempt, ok, "latencyMs") SELECT min(id), 'dst-1', 3, true, 1 FROM "OutboundDelivery" RETURNING id`,
      OutboundDelivery: `INSERT INTO "OutboundDelivery" ("destinationId", "eventId", "eventType", "jobId", outcome, "retryUntil", "updatedAt") VALUES ('dst-1', 'evt-new', 'job.stored', 'j', 'stored', now(), now()) RETURNING id`,
      QueueItem: `INSERT INTO "QueueItem" (kind, payload, "updatedAt") VALUES ('k', '{}', now()) RETURNING id`,
      RunChunk: `INSERT INTO "RunChunk" ("runId", seq, size, "firstUrl") VALUES ('run-a', 99, 1, 'https://example.com/x') RETURNING id`,
      Result: `INSERT INTO "Result" ("jobId", "itemKey", format) VALUES ('j-raw', 'new', 'markdown') RETURNING id`,
      SecretRotation: `INSERT INTO "SecretRotation" ("subscriptionId", source, actor) VALUES ('sub-a', 'rotated', 't') RETURNING id`,
    };
    expect(serial.map((r) => r.table_name)).toEqual(Object.keys(inserts).sort());
    for (const [table, sql] of Object.entries(inserts)) {
      const [{ max }] = await pgQuery<{ max: number }>(target, `SELECT max(id) AS max FROM "${table}"`);
      const [{ id }] = await pgQuery<{ id: number }>(target, sql);
      expect(id, table).toBe(max + 1);
    }
  });

  it("leaves a PostgreSQL-only column with a default (such as a transaction id) to its default", async () => {
    const url = await newTarget();
    await pgQuery(url, `ALTER TABLE "Result" ADD COLUMN "pgOnly" xid8 NOT NULL DEFAULT pg_current_xact_id()`);
    const lines: string[] = [];
    const r = await copyDatabase({ from: sourceUrl, to: url, print: (l) => lines.push(l) });
    expect(r.ok).toBe(true);
    expect(lines).toContain("note: Result.pgOnly exists only on PostgreSQL; its default fills it");
    const [x] = await pgQuery<{ rows: string; txids: string }>(
      url,
      `SELECT count(*) AS rows, count(DISTINCT "pgOnly") AS txids FROM "Result"`,
    );
    expect(Number(x.rows)).toBe(r.tables.find((t) => t.table === "Result")?.source);
    expect(Number(x.txids)).toBe(1);
  });

  it("Tally started on the copy lists the copied jobs", async () => {
    const before = await pgQuery<{ id: string }>(target, `SELECT id FROM "Job" ORDER BY id`);
    const tally = await startTally({
      DATABASE_URL: target,
      GEONODE_SCRAPER_API_KEY: "db-copy-test",
      SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
      TALLY_WORKER: "off",
      TALLY_RECONCILE_INTERVAL_MINUTES: "0",
    });
    try {
      const res = await fetch(`${tally.url}/api/jobs?limit=100`, {
        headers: { Authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { items: Array<{ jobId: string }> };
      expect(body.items.map((j) => j.jobId).sort()).toEqual(before.map((j) => j.id));
      expect(before.length).toBeGreaterThanOrEqual(4);
    } finally {
      await tally.stop();
    }
  });
});

describe("db:copy refuses, writing nothing", () => {
  it("columns that differ: a source column the target lacks, or a target-only column nothing can fill", async () => {
    const lacking = await newTarget();
    await pgQuery(lacking, `ALTER TABLE "AuditLog" DROP COLUMN detail`);
    await expect(copyDatabase({ from: sourceUrl, to: lacking })).rejects.toThrow(
      /target's AuditLog has no column detail: migrate the target first/,
    );
    const unfillable = await newTarget();
    await pgQuery(unfillable, `ALTER TABLE "Result" ADD COLUMN "pgOnly" text NOT NULL`);
    await expect(copyDatabase({ from: sourceUrl, to: unfillable })).rejects.toThrow(
      /Result\.pgOnly exists only on the target and has no default/,
    );
    expect(empty(await counts(unfillable))).toBe(true);
  });

  it("a non-empty target: one row anywhere is enough, and it stays the only one", async () => {
    const url = await newTarget();
    await pgQuery(url, `INSERT INTO "AuditLog" (actor, action) VALUES ('someone', 'was.here')`);
    await expect(copyDatabase({ from: sourceUrl, to: url })).rejects.toThrow(
      /target is not empty \(rows in AuditLog\).*nothing was written/,
    );
    expect(await counts(url)).toEqual({ ...Object.fromEntries(MODELS.map((m) => [m, 0])), AuditLog: 1 });
  });

  it("a target that is not migrated, or migrated to another version", async () => {
    const bare = await newTarget(false);
    await expect(copyDatabase({ from: sourceUrl, to: bare })).rejects.toThrow(/not migrated.*npm run db:migrate/);
    const behind = await newTarget();
    await pgQuery(
      behind,
      `DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)`,
    );
    await expect(copyDatabase({ from: sourceUrl, to: behind })).rejects.toThrow(
      /target lacks migrations .*npm run db:migrate/,
    );
    expect(empty(await counts(behind))).toBe(true);
  });

  it("a source another process has open: a writer, or a running Tally even when idle", async () => {
    const url = await newTarget();
    const writer = new Database(source);
    writer.exec("BEGIN IMMEDIATE");
    try {
      await expect(copyDatabase({ from: sourceUrl, to: url })).rejects.toThrow(/open in another process.*stop Tally/);
    } finally {
      writer.exec("ROLLBACK");
      writer.close();
    }
    const running = path.join(dir, "running.db");
    copyFileSync(source, running);
    const tally = await startTally(
      {
        GEONODE_SCRAPER_API_KEY: "db-copy-test",
        SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
        TALLY_WORKER: "off",
        TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      },
      running,
    );
    try {
      await expect(copyDatabase({ from: `file:${running}`, to: url })).rejects.toThrow(
        /open in another process.*stop Tally/,
      );
    } finally {
      await tally.stop();
    }
    expect(empty(await counts(url))).toBe(true);
    // Stopped, the same file copies.
    expect((await copyDatabase({ from: `file:${running}`, to: url })).ok).toBe(true);
  });

  it("wrong URLs, with exit code 2 and never a password", async () => {
    const cli = (...args: string[]) =>
      runToExit("npx", ["tsx", "--conditions=react-server", "scripts/db-copy.ts", ...args], {});
    const swapped = await cli("--from", "postgresql://u:hunter2@127.0.0.1:5432/x", "--to", sourceUrl);
    expect(swapped.code).toBe(2);
    expect(swapped.out).toMatch(/--from must be a SQLite URL/);
    const notPg = await cli("--from", sourceUrl, "--to", "mysql://u:hunter2@127.0.0.1/x");
    expect(notPg.code).toBe(2);
    expect(notPg.out).toMatch(/--to must be a PostgreSQL URL/);
    const unreachable = await cli("--from", sourceUrl, "--to", "postgresql://u:hunter2@127.0.0.1:1/x");
    expect(unreachable.code).toBe(2);
    expect(unreachable.out).toMatch(/cannot connect to the target postgresql:\/\/u:\*\*\*@127\.0\.0\.1:1\/x/);
    const missing = await cli("--from", `file:${path.join(dir, "nope.db")}`, "--to", target);
    expect(missing.code).toBe(2);
    expect(missing.out).toMatch(/does not exist/);
    for (const r of [swapped, notPg, unreachable]) expect(r.out).not.toContain("hunter2");
  });
});

describe("a failure mid-copy", () => {
  it("rolls everything back: exit 1, the target as empty as before", async () => {
    // A child row whose parent is missing (written with foreign keys off): PostgreSQL rejects it
    // in the last table, after every other table has been inserted.
    const broken = path.join(dir, "broken.db");
    copyFileSync(source, broken);
    const raw = new Database(broken);
    raw.pragma("foreign_keys = OFF");
    raw
      .prepare(
        `INSERT INTO OutboundAttempt (deliveryId, destinationId, attempt, ok, latencyMs, at) VALUES (999999, 'dst-1', 1, 1, 1, ?)`,
      )
      .run(INSTANT.getTime());
    raw.close();
    const url = await newTarget();
    const run = await runToExit(
      "npx",
      ["tsx", "--conditions=react-server", "scripts/db-copy.ts", "--from", `file:${broken}`, "--to", url],
      {},
    );
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/Job: \d+ rows in/);
    expect(run.out).toMatch(/copy failed while copying OutboundAttempt: .*foreign key.*Rolled back/s);
    expect(empty(await counts(url))).toBe(true);
  });

  it("a value that is not a date stops the copy with the table, column and row", async () => {
    const broken = path.join(dir, "bad-date.db");
    copyFileSync(source, broken);
    const raw = new Database(broken);
    raw.prepare(`UPDATE Job SET settledAt = 'yesterday-ish' WHERE id = 'j-raw'`).run();
    raw.close();
    const url = await newTarget();
    await expect(copyDatabase({ from: `file:${broken}`, to: url })).rejects.toThrow(
      /Job\.settledAt \(row id=j-raw\): not a date-time: "yesterday-ish".*Rolled back/,
    );
    expect(empty(await counts(url))).toBe(true);
  });

  it("reads every stored date form as UTC", () => {
    expect(toTimestamp("2026-11-30T23:59:58.123+00:00")).toBe("2026-11-30 23:59:58.123");
    expect(toTimestamp("2026-12-01T01:59:58.123+02:00")).toBe("2026-11-30 23:59:58.123");
    expect(toTimestamp(INSTANT.getTime())).toBe("2026-11-30 23:59:58.123");
    expect(toTimestamp(BigInt(INSTANT.getTime()))).toBe("2026-11-30 23:59:58.123");
    expect(toTimestamp("2026-11-30 23:59:58")).toBe("2026-11-30 23:59:58.000");
    expect(toTimestamp("2026-11-30")).toBe("2026-11-30 00:00:00.000");
  });
});
