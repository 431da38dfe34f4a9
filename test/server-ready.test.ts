// GET /api/ready on `npm start` (issue 48 item 3): 200 on a fresh server; 503 with the failing check's
// code, and nothing more, when the body store cannot be written or the database lacks a migration this
// version ships; /api/health (liveness) stays 200 through both.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "@/lib/simulator/test-harness.test-util";
import { openSql, type TestSql } from "./sql";
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

/** Waits out the checks' cache (2 s) for the answer `want`. */
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
});
