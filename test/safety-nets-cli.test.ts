// The CLI scripts run the same code as the buttons, print progress and a summary, and exit 0 on
// success, 1 on failure, 2 on bad usage (what cron and operators rely on).
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { NO_DELIVERY_LOG } from "@/lib/safety-nets/replay";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { runToExit, TEST_ENV, type Exited } from "./tally-server";

let sim: Awaited<ReturnType<typeof startSim>>;
let t: TestDb;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  await db().subscription.create({
    data: { id: "sub-gone", eventType: "batch_completed", url: "http://x/y", platformId: randomUUID() },
  });
});
afterAll(async () => {
  await sim?.close();
  await t?.cleanup();
});

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<Exited> {
  return runToExit(
    path.resolve("node_modules/.bin/tsx"),
    ["--conditions=react-server", `scripts/${script}.ts`, ...args],
    {
      ...TEST_ENV,
      DATABASE_URL: t.url,
      SCRAPER_API_BASE_URL: sim.url,
      GEONODE_SCRAPER_API_KEY: API_KEY,
      TALLY_PUBLIC_URL: "http://tally.test:3000",
      TALLY_API_RPS: "1000",
      TALLY_LOG_LEVEL: "error",
      ...env,
    },
  );
}

describe("CLI scripts", () => {
  it("exit 0 on success, 1 on failure and 2 on bad usage", async () => {
    // First, alone: registration would repair sub-gone (missing on the platform) if it ran at the same time.
    const noLog = await run("replay", ["--webhook", "sub-gone"]);
    const [registered, unreachable, badSince, badScope] = await Promise.all([
      run("register-webhooks", []),
      run("reconcile", [], { SCRAPER_API_BASE_URL: "http://127.0.0.1:9", TALLY_API_TIMEOUT_MS: "500" }),
      run("replay", ["--since", "yesterday"]),
      run("reconcile", ["--scope", "everything"]),
    ]);
    // After the failed one: two reconciliations at once would be one run (single-flight across processes).
    const extract = await db().subscription.findFirstOrThrow({
      where: { eventType: "extract_completed" },
      select: { platformId: true },
    });
    const [reconciled, rotated] = await Promise.all([
      run("reconcile", ["--older-than", "0", "--scope", "full"]),
      run("rotate", ["--webhook", String(extract.platformId)], { TALLY_ROTATION_SETTLE_SECONDS: "0" }),
    ]);
    expect(registered, registered.out).toMatchObject({ code: 0 });
    expect(registered.out).toContain("registered: extract_completed, batch_completed, crawl_completed");
    expect(reconciled, reconciled.out).toMatchObject({ code: 0 });
    expect(reconciled.out).toMatch(/run \S+ succeeded/);
    expect(reconciled.out).toContain('"listed"');
    expect(reconciled.out).toMatch(/"scope": ?"full"/);
    expect(badScope, badScope.out).toMatchObject({ code: 2 });
    expect(badScope.out).toContain('scope must be "recent" or "full"');
    expect(unreachable, unreachable.out).toMatchObject({ code: 1 });
    expect(unreachable.out).toMatch(/run \S+ failed/);
    expect(badSince, badSince.out).toMatchObject({ code: 2 });
    expect(badSince.out).toContain("since must be an ISO date-time");
    expect(noLog, noLog.out).toMatchObject({ code: 1 });
    expect(noLog.out).toContain(NO_DELIVERY_LOG);
    expect(rotated, rotated.out).toMatchObject({ code: 0 });
    expect(rotated.out).toMatch(/run \S+ succeeded/);
    const stored = await db().subscription.findFirstOrThrow({
      where: { eventType: "extract_completed" },
      omit: { secret: false },
    });
    expect(rotated.out).toContain(`…${String(stored.secret).slice(-4)}`);
    expect(rotated.out).not.toContain(String(stored.secret));
    // Runs and audit rows are the same as the buttons'.
    expect(
      await db().auditLog.count({
        where: { action: { in: ["subscriptions.register", "operations.reconcile", "operations.replay"] } },
      }),
    ).toBe(4);
  }, 120_000);
});
