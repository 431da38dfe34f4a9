// Tally's server (server.ts, what `npm start` runs): readable start-up failures, a stop that finishes
// the deliveries in flight, and the receiver route that Next still serves alone (`next dev`, `next start`).
import { spawn } from "node:child_process";
import http from "node:http";
import { connect, createServer, type Server } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signDelivery, defaultHmacScheme } from "@/lib/signing/signature";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { freePort, runToExit, SERVER_BUNDLE, startTally, TEST_ENV } from "./tally-server";
import { deliver, envelope } from "./webhook-client";

const SECRET = "whsec_server_test_secret_value";
// Live mode against an address nobody answers, worker off: only the receiver touches the rows.
const LIVE = {
  GEONODE_SCRAPER_API_KEY: "server-test",
  SCRAPER_API_BASE_URL: "http://127.0.0.1:9",
  TALLY_WORKER: "off",
  TALLY_RECONCILE_INTERVAL_MINUTES: "0",
};

let t: TestDb;
let sql: TestSql;
beforeAll(async () => {
  t = await createTestDb();
  sql = await openSql(t.url);
  await addSubscription(sql, "sub-1", SECRET);
});
afterAll(async () => {
  await sql?.close();
  await t?.cleanup();
});

const receipts = (jobId: string) => sql.count("Receipt", "jobId = ?", jobId);

const runServer = (env: Record<string, string>) =>
  runToExit(process.execPath, [SERVER_BUNDLE], { ...TEST_ENV, ...env }, 30_000);

describe("start-up failures", () => {
  it("names every bad variable and exits 1, without a stack trace or a secret", async () => {
    const { code, out: output } = await runServer({
      DATABASE_URL: t.url,
      PORT: "eighty",
      TALLY_HOST: "not a host!",
      TALLY_API_TOKEN: "short-secret",
    });
    expect(code).toBe(1);
    expect(output).toContain("Tally cannot start: bad configuration");
    expect(output).toMatch(/PORT: must be a number/);
    expect(output).toMatch(/TALLY_HOST: must be a host name or an IP address/);
    expect(output).toMatch(/TALLY_API_TOKEN: .*a hidden value/);
    expect(output).not.toContain("short-secret");
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("says so when the port is taken, and exits 1 before starting anything", async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(port, "127.0.0.1", () => r()));
    try {
      const { code, out: output } = await runServer({
        ...LIVE,
        TALLY_WORKER: "on",
        DATABASE_URL: t.url,
        PORT: String(port),
        TALLY_HOST: "127.0.0.1",
      });
      expect(code).toBe(1);
      expect(output).toContain(`Tally cannot start: port ${port} is already in use`);
      // It fails before anything starts: no worker, no schedules, no "running" banner.
      expect(output).not.toContain("Tally is running");
      expect(output).not.toContain("worker started");
    } finally {
      blocker.close();
    }
  });
});

describe("stopping", () => {
  it("on SIGTERM, answers and commits a delivery already in flight, tells new callers it is draining, then exits 0", async () => {
    const tally = await startTally(LIVE, t.url);
    const body = envelope("job-in-flight");
    const headers = signDelivery(defaultHmacScheme, SECRET, body, { id: "m1", timestamp: Date.now() / 1000 });
    const { port } = new URL(tally.url);
    // Half the body now, the rest after the signal: the request is in flight when the server is told to stop.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/webhooks/geonode/sub-1",
          method: "POST",
          headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          let text = "";
          res.on("data", (d) => (text += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 1_000);
    });
    await new Promise((r) => setTimeout(r, 300));
    const exit = tally.signal("SIGTERM");
    // The server has begun stopping once it says so; a loaded machine may take a while.
    // A busy process (CI: Next still warming up) may take seconds to run the handler; the check below
    // means nothing until it has, so wait for the line rather than a fixed time.
    for (let i = 0; i < 3_000 && !tally.output().includes("Tally stopping (SIGTERM)"); i++)
      await new Promise((r) => setTimeout(r, 10));
    expect(tally.output()).toContain("Tally stopping (SIGTERM)");
    await new Promise((r) => setTimeout(r, 50));
    // While a request is in flight the port stays open (docs/operations/deployment.md#shutdown): a new
    // connection (not one of fetch's pooled keep-alive ones) is answered, told the process is draining,
    // and closed after its answer.
    const probed = await new Promise<string>((resolve) => {
      const probe = http.get({ host: "127.0.0.1", port, path: "/api/ready", agent: false }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve(`${res.statusCode} ${res.headers.connection} ${text}`));
      });
      probe.on("error", (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    expect(probed).toBe('503 close {"ready":false,"reason":"draining"}');
    expect(await answer).toEqual({ status: 200, text: JSON.stringify({ status: "accepted" }) });
    expect(await exit).toBe(0);
    expect(await receipts("job-in-flight")).toBe(1);
    expect(tally.output()).toContain("Tally stopping (SIGTERM)");
  });
});

describe("slow senders", () => {
  it("a request that never arrives whole is answered 408 and its connection closed, storing nothing", async () => {
    const tally = await startTally({ ...LIVE, TALLY_REQUEST_TIMEOUT_SECONDS: "1" }, t.url);
    try {
      const body = envelope("job-slowloris");
      const { port } = new URL(tally.url);
      const started = Date.now();
      const answer = await new Promise<string>((resolve, reject) => {
        let got = "";
        const socket = connect(Number(port), "127.0.0.1", () => {
          socket.write(
            `POST /webhooks/geonode/sub-1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
          );
        });
        socket.on("data", (d) => (got += d));
        socket.on("close", () => resolve(got));
        socket.on("error", reject);
        setTimeout(() => socket.destroy(), 15_000);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await receipts("job-slowloris")).toBe(0);
      // The server is fine and answers the next sender.
      expect(await deliver(`${tally.url}/webhooks/geonode/sub-1`, body, { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "accepted" },
      });
    } finally {
      await tally.stop();
    }
  });
});

describe("the receiver route under Next alone (next dev, next start)", () => {
  it("gives the same answers as Tally's server", async () => {
    const port = await freePort();
    const child = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
      env: {
        ...process.env,
        ...TEST_ENV,
        ...LIVE,
        DATABASE_URL: t.url,
        PORT: String(port),
        TALLY_WEBHOOK_MAX_BODY_BYTES: "4096",
      },
      stdio: "ignore",
    });
    try {
      const url = `http://127.0.0.1:${port}/webhooks/geonode`;
      for (let i = 0; i < 200; i++) {
        if (
          await fetch(url, { method: "POST", body: "{}" }).then(
            () => true,
            () => false,
          )
        )
          break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await deliver(`${url}/sub-1`, envelope("job-next"), { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "accepted" },
      });
      expect(await deliver(`${url}/sub-1`, envelope("job-next"), { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "duplicate" },
      });
      expect(await deliver(url, envelope("job-next-shared"), { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "accepted" },
      });
      expect(await deliver(`${url}/sub-1`, envelope("job-next-bad"), { secret: "wrong" })).toEqual({
        status: 401,
        json: { error: "invalid_signature" },
      });
      expect((await deliver(`${url}/sub-1`, "[1]", { secret: SECRET })).status).toBe(400);
      expect(
        (
          await deliver(`${url}/sub-1`, envelope("job-next-big", "extract_completed", { pad: "x".repeat(5000) }), {
            secret: SECRET,
          })
        ).status,
      ).toBe(413);
      expect((await deliver(`${url}/sub-1`, "", { method: "GET" })).status).toBe(405);
      expect((await deliver(`${url}/nope`, envelope("job-next-x"), { secret: SECRET })).status).toBe(404);
      expect(await Promise.all(["job-next", "job-next-shared", "job-next-bad", "job-next-big"].map(receipts))).toEqual([
        1, 1, 0, 0,
      ]);
    } finally {
      child.kill("SIGTERM");
    }
  });
});
