// A deploy's SIGTERM under `npm start`: the in-server worker finishes the item it is running (stored,
// its attempt kept) before the process exits, instead of aborting it to be fetched again. Under an
// orchestrator (issue 48 item 4): /api/ready turns 503 `draining` at once, a request in flight is still
// answered, and items that cannot finish within TALLY_SHUTDOWN_GRACE_MS are handed back, exit 0 in time.
import { spawn } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitJob } from "@/lib/jobs/submit";
import { resetPlatformClients } from "@/lib/platform/shared-client";
import { isTerminal } from "@/lib/platform";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { addSubscription, createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { startTally, TEST_ENV } from "./tally-server";
import { deliver, envelope } from "./webhook-client";
import { signDelivery, defaultHmacScheme } from "@/lib/signing/signature";

const SECRET = "whsec_shutdown_test_secret";
let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;
let sql: TestSql;
beforeAll(async () => {
  sim = await startSim();
  resetPlatformClients();
  t = await createTestDb({ SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_API_RPS: "1000" });
  sql = await openSql(t.url);
  await addSubscription(sql, "sub-1", SECRET);
});
afterAll(async () => {
  await sql?.close();
  await sim?.close();
  await t?.cleanup();
});

describe("stopping under npm start", () => {
  it("lets the worker finish the item in flight, then exits 0", async () => {
    const { jobId } = await submitJob({ kind: "extract", url: "https://example.com/shutdown" });
    const client = sim.client();
    await waitFor("platform job settled", async () => isTerminal((await client.getJob("extract", jobId)).status));
    const tally = await startTally(
      {
        SCRAPER_API_BASE_URL: sim.url,
        GEONODE_SCRAPER_API_KEY: API_KEY,
        TALLY_API_RPS: "1000",
        TALLY_WORKER: "on",
        TALLY_RECONCILE_INTERVAL_MINUTES: "0",
      },
      t.url,
    );
    // Every platform answer now takes 2 s: the worker is mid-call when the signal comes.
    await sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 2000 });
    try {
      expect(await deliver(`${tally.url}/webhooks/geonode/sub-1`, envelope(jobId), { secret: SECRET })).toEqual({
        status: 200,
        json: { status: "accepted" },
      });
      const state = async () =>
        (await sql.get("SELECT state, attempts FROM QueueItem WHERE jobId = ?", jobId)) as {
          state: string;
          attempts: number;
        };
      await waitFor("item claimed", async () => (await state()).state === "leased", 5000);
      expect(await tally.signal("SIGTERM")).toBe(0);
      expect(await state()).toEqual({ state: "done", attempts: 1 });
      expect(await sql.get("SELECT outcome FROM Job WHERE id = ?", jobId)).toEqual({ outcome: "stored" });
      expect(tally.output()).toContain("Tally stopping (SIGTERM)");
    } finally {
      await sim.control("/_sim/config", { slowResponseRate: 0 });
    }
  });
});

/** A signed delivery whose body is sent in two halves: `finish()` sends the rest and resolves with the answer. */
function slowDelivery(url: string, body: string) {
  const sig = signDelivery(defaultHmacScheme, SECRET, body, {
    id: `msg_slow_${Date.now()}`,
    timestamp: Date.now() / 1000,
  });
  let started: http.ClientRequest | null = null;
  const answer = new Promise<{ status: number; json: unknown }>((resolve, reject) => {
    const req = http.request(url, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...sig },
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.write(body.slice(0, 20));
    started = req;
  });
  return {
    answer,
    finish() {
      started?.end(body.slice(20));
      return answer;
    },
  };
}

describe("stopping under an orchestrator", () => {
  it("turns /api/ready to 503 draining at once, answers the request in flight, hands items back, exits 0 within the grace", async () => {
    const GRACE_MS = 4000;
    const jobIds: string[] = [];
    for (let i = 0; i < 3; i++)
      jobIds.push((await submitJob({ kind: "extract", url: `https://example.com/drain-${i}` })).jobId);
    const late = (await submitJob({ kind: "extract", url: "https://example.com/drain-late" })).jobId;
    const client = sim.client();
    for (const id of [...jobIds, late])
      await waitFor("platform job settled", async () => isTerminal((await client.getJob("extract", id)).status));
    const tally = await startTally(
      {
        SCRAPER_API_BASE_URL: sim.url,
        GEONODE_SCRAPER_API_KEY: API_KEY,
        TALLY_API_RPS: "1000",
        TALLY_WORKER: "on",
        TALLY_WORKER_CONCURRENCY: "4",
        TALLY_RECONCILE_INTERVAL_MINUTES: "0",
        TALLY_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      t.url,
    );
    // Loaded before the signal: a route's first request loads its code.
    expect((await fetch(`${tally.url}/api/ready`)).status).toBe(200);
    // Every platform answer now takes 30 s, far past the grace: the items cannot finish and must be handed back.
    await sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 30_000 });
    try {
      for (const id of jobIds)
        expect((await deliver(`${tally.url}/webhooks/geonode/sub-1`, envelope(id), { secret: SECRET })).status).toBe(
          200,
        );
      const rows = () =>
        sql.all<{ jobId: string; state: string; leaseOwner: string | null }>(
          `SELECT jobId, state, leaseOwner FROM QueueItem WHERE jobId IN (${[...jobIds, late].map(() => "?").join(", ")})`,
          ...jobIds,
          late,
        );
      await waitFor(
        "items claimed",
        async () => (await rows()).filter((r) => r.state === "leased").length === 3,
        10_000,
      );
      const slow = slowDelivery(`${tally.url}/webhooks/geonode/sub-1`, envelope(late));
      // The delivery's headers are in and its body half sent: it is in flight when the signal comes.
      await new Promise((r) => setTimeout(r, 200));
      const signalledAt = Date.now();
      const exited = tally.signal("SIGTERM").then((code) => ({ code, ms: Date.now() - signalledAt }));
      // A keep-alive connection the server closes as it starts draining can reset the request sent on
      // it at that moment (as a balancer's probe would see it, and retry): asked again on a new one.
      const probe = (path: string) => fetch(`${tally.url}${path}`).catch(() => fetch(`${tally.url}${path}`));
      await waitFor("draining", async () => {
        const res = await probe("/api/ready");
        return res.status === 503 && JSON.stringify(await res.json()) === '{"ready":false,"reason":"draining"}';
      });
      const drainingAfterMs = Date.now() - signalledAt;
      // The liveness check still answers: the process is alive, only stopping.
      expect((await probe("/api/health")).status).toBe(200);
      expect(await slow.finish()).toEqual({ status: 200, json: { status: "accepted" } });
      const { code, ms } = await exited;
      console.log(
        `draining answered ${drainingAfterMs} ms after SIGTERM; exit ${code} after ${ms} ms (grace ${GRACE_MS} ms)`,
      );
      expect(drainingAfterMs).toBeLessThan(1000);
      expect(code).toBe(0);
      expect(ms).toBeLessThan(GRACE_MS + 1000);
      // None lost: the three held items are back to ready with no owner, the late delivery's item waits for
      // the next worker; none is left leased to the stopped process.
      const after = await rows();
      expect(after.map((r) => r.jobId).sort()).toEqual([...jobIds, late].sort());
      for (const r of after) expect(r).toMatchObject({ state: "ready", leaseOwner: null });
      expect(tally.output()).not.toContain("stop grace ran out");
    } finally {
      await sim.control("/_sim/config", { slowResponseRate: 0 });
    }
  });
});

describe("stopping npm run worker", () => {
  it("hands its items back within TALLY_SHUTDOWN_GRACE_MS and exits 0", { timeout: 180_000 }, async () => {
    const GRACE_MS = 3000;
    const jobIds: string[] = [];
    for (let i = 0; i < 2; i++)
      jobIds.push((await submitJob({ kind: "extract", url: `https://example.com/worker-drain-${i}` })).jobId);
    const client = sim.client();
    for (const id of jobIds)
      await waitFor("platform job settled", async () => isTerminal((await client.getJob("extract", id)).status));
    const shared = { SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_API_RPS: "1000" };
    // The server takes the deliveries and does no queue work: the items wait for the worker.
    const tally = await startTally({ ...shared, TALLY_WORKER: "off", TALLY_SCHEDULER: "off" }, t.url);
    await sim.control("/_sim/config", { slowResponseRate: 1, slowResponseMs: 30_000 });
    const worker = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "scripts/worker.ts"], {
      env: {
        ...process.env,
        ...TEST_ENV,
        ...shared,
        DATABASE_URL: t.url,
        TALLY_BODY_STORE: t.config.TALLY_BODY_STORE,
        TALLY_SCHEDULER: "off",
        TALLY_LOG_LEVEL: "info",
        TALLY_SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    worker.stdout.on("data", (d) => (out += d));
    worker.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    try {
      for (const id of jobIds)
        expect((await deliver(`${tally.url}/webhooks/geonode/sub-1`, envelope(id), { secret: SECRET })).status).toBe(
          200,
        );
      const rows = () =>
        sql.all<{ state: string; leaseOwner: string | null }>(
          "SELECT state, leaseOwner FROM QueueItem WHERE jobId IN (?, ?)",
          ...jobIds,
        );
      await waitFor(
        "the worker holds both items",
        async () => {
          const r = await rows();
          return r.length === 2 && r.every((x) => x.state === "leased");
        },
        120_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\n${out}`);
      });
      const signalledAt = Date.now();
      worker.kill("SIGTERM");
      const code = await exited;
      const ms = Date.now() - signalledAt;
      console.log(`npm run worker: exit ${code} after ${ms} ms (grace ${GRACE_MS} ms)`);
      expect(code, out).toBe(0);
      expect(ms).toBeLessThan(GRACE_MS + 1000);
      expect(await rows()).toEqual([
        { state: "ready", leaseOwner: null },
        { state: "ready", leaseOwner: null },
      ]);
      expect(out).not.toContain("stop grace ran out");
    } finally {
      if (worker.exitCode === null) worker.kill("SIGKILL");
      await sim.control("/_sim/config", { slowResponseRate: 0 });
      await tally.stop();
    }
  });
});
