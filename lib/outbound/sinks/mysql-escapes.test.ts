// The MySQL sink on a server whose sessions start in NO_BACKSLASH_ESCAPES mode (issue 38): scraped content
// with quotes and backslashes is written as it is, never read as SQL. mysql2 escapes values into the
// statement's text with backslashes, which that mode reads as a backslash and the end of the string; the
// sink takes the mode out of each session before its first statement. The mode is set for this test's
// own account only, through init_connect, which MariaDB runs for accounts without SUPER: the root
// sessions other tests use are untouched.
import { randomBytes } from "node:crypto";
import mysql from "mysql2/promise";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVICES, serviceAnswers, type SinkService } from "@/test/sink-services";
import { mysqlSink } from "./mysql";
import type { SinkEvent } from "./types";

const up = await serviceAnswers("mysql");

describe.skipIf(!up)("the mysql sink on a server in NO_BACKSLASH_ESCAPES mode", () => {
  const user = `tally_nbe_${randomBytes(4).toString("hex")}`;
  let svc: SinkService;
  let root: mysql.Connection;
  let database = "";
  let previous = "";

  beforeAll(async () => {
    svc = await SERVICES.mysql();
    const url = new URL(String(svc.config.url));
    database = url.pathname.slice(1);
    root = await mysql.createConnection({ host: "127.0.0.1", port: 3306, user: "root", database, timezone: "Z" });
    const [rows] = await root.query("SELECT @@global.init_connect AS v");
    previous = String((rows as { v: string | null }[])[0]?.v ?? "");
    await root.query(`CREATE USER '${user}'@'%' IDENTIFIED BY 'pw'`);
    await root.query(`GRANT ALL ON \`${database}\`.* TO '${user}'@'%'`);
    // Only this test's account: others keep their mode even when they lack SUPER.
    await root.query(
      `SET GLOBAL init_connect = "SET SESSION sql_mode = IF(CURRENT_USER() LIKE '${user}@%', CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES'), @@sql_mode)"`,
    );
  });
  afterAll(async () => {
    await root?.query("SET GLOBAL init_connect = ?", [previous]).catch(() => undefined);
    await root?.query(`DROP USER IF EXISTS '${user}'@'%'`).catch(() => undefined);
    await root?.end();
    await svc?.close();
  });

  it("writes quotes and backslashes as they are, rows and events alike", async () => {
    const url = new URL(String(svc.config.url));
    url.username = user;
    url.password = "pw";
    // The mode is in effect for this account (else the test would prove nothing).
    const probe = await mysql.createConnection(url.toString());
    const [mode] = await probe.query("SELECT @@session.sql_mode AS m");
    await probe.end();
    expect((mode as { m: string }[])[0].m).toContain("NO_BACKSLASH_ESCAPES");
    const sink = mysqlSink({ url: url.toString(), table: "results" }, { timeoutMs: 5000 });
    const markdown = String.raw`it's \' a \\' trap', 'x', NULL, NULL, NULL, NULL, 0, NOW(), 'forged') -- `;
    const at = new Date("2026-03-04T05:06:07.089Z");
    const events: SinkEvent[] = [
      {
        id: "evt_rows",
        type: "job.stored",
        jobId: "job-1",
        outcome: "stored",
        createdAt: at,
        body: "{}",
        results: [
          {
            itemKey: "0",
            url: String.raw`https://example.com/a\'b`,
            status: "completed",
            format: "markdown",
            markdown,
            html: null,
            metadata: { title: String.raw`O\'Neil's` },
            errorCode: null,
            errorMessage: null,
            tokensCharged: 3,
            storedAt: at,
          },
        ],
      },
      {
        id: "evt_plain",
        type: "job.dead_lettered",
        jobId: String.raw`job\'2`,
        outcome: "dead_lettered",
        createdAt: at,
        body: JSON.stringify({ note: String.raw`\' -- ` }),
        results: null,
      },
    ];
    try {
      // Both events: two statements in one transaction; then each alone, one statement each.
      expect(await sink.deliverMany(events)).toEqual([null, null]);
      for (const e of events) expect(await sink.deliverMany([e])).toEqual([null]);
    } finally {
      await sink.close();
    }
    const [rows] = await root.query("SELECT job_id, item_key, url, markdown, metadata, stored_at FROM results");
    expect(rows).toEqual([
      {
        job_id: "job-1",
        item_key: "0",
        url: String.raw`https://example.com/a\'b`,
        markdown,
        metadata: { title: String.raw`O\'Neil's` },
        stored_at: at,
      },
    ]);
    const [plain] = await root.query("SELECT event_id, job_id, payload, created_at FROM results_events");
    expect(plain).toEqual([
      {
        event_id: "evt_plain",
        job_id: String.raw`job\'2`,
        payload: JSON.parse(events[1].body) as unknown,
        created_at: at,
      },
    ]);
  });
});
