// GET /api/ready on `npm start` (issue 48 item 3): 200 on a fresh server; 503 with the failing check's
// code, and nothing more, when the body store cannot be written or the database lacks a migration this
// version ships (or has no table of migrations at all), and, on PostgreSQL, when its database is gone;
// /api/health (liveness) stays 200 through the first two.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { READY_CACHE_MS } from "@/lib/readiness";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { openSql, type TestSql } from "./sql";
import { adminQuery, TEST_STORE } from "./store";
import { startTally, type TallyServer } from "./tally-server";

let tally: TallyServer;
let sql: TestSql;
beforeAll(async () => {
  tally = await startTally();
  sql = await openSql(tally.dbUrl);
});
afterAll(async () => {
  await sql?.close();
  await tally?.stop();
});

async function ready(): Promise<{ status: number; body: unknown; cache: string | null }> {
  const res = await fetch(`${tally.url}/api/ready`);
  return { status: res.status, body: await res.json(), cache: res.headers.get("cache-control") };
}

/** Waits out the checks' cache (READY_CACHE_MS) for this answer. */
async function readyTurns(status: number, body: unknown) {
  await waitFor(
    `/api/ready ${status} ${JSON.stringify(body)}`,
    async () => {
      const r = await ready();
      if (r.status === status && JSON.stringify(r.body) === JSON.stringify(body)) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return false;
    },
    10_000,
  );
}

describe("GET /api/ready", () => {
  it("answers 200 on a fresh server, without a session, not to be cached", async () => {
    expect(await ready()).toEqual({ status: 200, body: { ready: true }, cache: "no-store" });
  });

  it("answers 503 body_store_unwritable while the body store cannot be written, and 200 again after", async () => {
    const dir = tally.env.TALLY_BODY_STORE.replace(/^file:/, "");
    // chmod does not stop root (these tests often run as root): a file where the folder was stops anyone.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a folder");
    try {
      await readyTurns(503, { ready: false, reason: "body_store_unwritable" });
      expect((await fetch(`${tally.url}/api/health`)).status).toBe(200);
      // The reason goes to the log, not to the caller.
      expect(tally.output()).toContain("not ready");
    } finally {
      rmSync(dir, { force: true });
      mkdirSync(dir, { recursive: true });
    }
    await readyTurns(200, { ready: true });
  });

  it("answers 503 migrations_pending when the database lacks the last migration", async () => {
    await sql.run(
      "DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)",
    );
    await readyTurns(503, { ready: false, reason: "migrations_pending" });
    expect((await fetch(`${tally.url}/api/health`)).status).toBe(200);
  });

  it("still answers 503 migrations_pending on a database that was never migrated (no table of migrations)", async () => {
    await sql.run("DROP TABLE _prisma_migrations");
    // Past the checks' cache, so the answer is the new database's (the last test left it pending too).
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS + 500));
    expect(await ready()).toMatchObject({ status: 503, body: { ready: false, reason: "migrations_pending" } });
  });

  it.skipIf(TEST_STORE !== "postgres")("answers 503 database_unreachable once its database is gone", async () => {
    const other = await startTally();
    try {
      const name = decodeURIComponent(new URL(other.dbUrl).pathname.slice(1));
      expect((await fetch(`${other.url}/api/ready`)).status).toBe(200);
      await adminQuery(`DROP DATABASE "${name}" WITH (FORCE)`);
      await waitFor(
        "database_unreachable",
        async () => {
          const res = await fetch(`${other.url}/api/ready`);
          const body = JSON.stringify(await res.json());
          if (res.status === 503 && body === '{"ready":false,"reason":"database_unreachable"}') return true;
          await new Promise((resolve) => setTimeout(resolve, 100));
          return false;
        },
        15_000,
      );
    } finally {
      await other.stop();
    }
  });
});
