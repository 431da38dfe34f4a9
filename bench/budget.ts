// npm run bench:budget — what the shared platform budget (lib/platform/shared-budget.ts) costs per
// call, on SQLite and on PostgreSQL (when a server answers at TALLY_TEST_POSTGRES_URL or
// 127.0.0.1:5432): database round trips per 100 calls, and the time acquire() takes (p50/p99) beside
// the in-memory RateLimiter under the same demand. No HTTP: only the budget is measured.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "pg";
import { parseConfig, setConfigForTests } from "@/lib/config";
import { dbReady, disconnectAll } from "@/lib/db";
import { RateLimiter, realSleep, type Limiter } from "@/lib/platform/rate-limit";
import { SharedBudget } from "@/lib/platform/shared-budget";
import { machine } from "./common";

type Scenario = { name: string; rps: number; callers: number; gapMs: number; calls: number };

// Below the budget (callers spaced out: the wait is the budget's own cost) and at it (callers queued:
// the wait is mostly the pacing itself, the same for both limiters).
const SCENARIOS: Scenario[] = [
  { name: "1 caller at half of 100 rps", rps: 100, callers: 1, gapMs: 20, calls: 300 },
  { name: "8 callers, 100 rps, saturated", rps: 100, callers: 8, gapMs: 0, calls: 400 },
  { name: "4 callers, 10 rps, saturated", rps: 10, callers: 4, gapMs: 0, calls: 60 },
];

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function run(limiter: Limiter, s: Scenario): Promise<{ p50: number; p99: number }> {
  const waits: number[] = [];
  let left = s.calls;
  await Promise.all(
    Array.from({ length: s.callers }, async () => {
      while (left > 0) {
        left--;
        const t0 = performance.now();
        await limiter.acquire();
        waits.push(performance.now() - t0);
        if (s.gapMs > 0) await realSleep(s.gapMs);
      }
    }),
  );
  waits.sort((a, b) => a - b);
  return { p50: pct(waits, 50), p99: pct(waits, 99) };
}

async function benchStore(store: string, url: string): Promise<void> {
  setConfigForTests(parseConfig({ NODE_ENV: "test", DATABASE_URL: url }));
  await dbReady();
  for (const s of SCENARIOS) {
    const memory = await run(
      new RateLimiter({ requestsPerSecond: s.rps, burst: s.rps, now: Date.now, sleep: realSleep }),
      s,
    );
    const shared = new SharedBudget({ key: `bench ${s.name}`, requestsPerSecond: s.rps });
    const got = await run(shared, s);
    const { calls, leases, pauseReads, pauseWrites } = shared.stats;
    const trips = ((leases + pauseReads + pauseWrites) / calls) * 100;
    console.log(
      `${store.padEnd(10)} ${s.name.padEnd(30)} round trips/100 calls ${trips.toFixed(1).padStart(5)} (leases ${leases}, pause reads ${pauseReads})` +
        `  acquire p50 ${got.p50.toFixed(2)} ms p99 ${got.p99.toFixed(2)} ms  (in memory: p50 ${memory.p50.toFixed(2)} p99 ${memory.p99.toFixed(2)})`,
    );
  }
  await disconnectAll();
}

async function postgresAdmin(): Promise<string | null> {
  const admin = process.env.TALLY_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const c = new Client({ connectionString: admin, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return admin;
  } catch {
    return null;
  }
}

async function main() {
  console.log(machine());
  const dir = mkdtempSync(path.join(tmpdir(), "tally-bench-budget-"));
  const sqliteUrl = `file:${path.join(dir, "tally.db")}`;
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: sqliteUrl },
    stdio: "pipe",
  });
  try {
    await benchStore("SQLite", sqliteUrl);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const admin = await postgresAdmin();
  if (!admin) {
    console.log("PostgreSQL  skipped: no server answers (set TALLY_TEST_POSTGRES_URL)");
    return;
  }
  const name = `tally_bench_budget_${process.pid}`;
  const adminQuery = async (sql: string) => {
    const c = new Client({ connectionString: admin });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  try {
    execFileSync("npx", ["prisma", "migrate", "deploy", "--schema", "prisma/postgres/schema.prisma"], {
      env: { ...process.env, DATABASE_URL: url.toString() },
      stdio: "pipe",
    });
    await benchStore("PostgreSQL", url.toString());
  } finally {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
