// The login throttle is counted in the database: failed sign-ins alternating between two servers on
// one database are counted together. Runs on SQLite and, through vitest.postgres.config.mts, on
// PostgreSQL (requires `npm run build`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ACCOUNT_FACTOR, loginBlockedFor, pairKey, recordLoginFailure } from "@/lib/auth/throttle";
import { createUser } from "@/lib/auth/users";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let servers: TallyServer[] = [];
beforeAll(async () => {
  t = await createTestDb({ TALLY_LOGIN_MAX_ATTEMPTS: "3", TALLY_LOGIN_WINDOW_SECONDS: "60" });
  // Each server plays the part of a node behind one trusted proxy that appends the client's address.
  servers = await Promise.all(
    [0, 1].map(() => startTally({ DATABASE_URL: t.url, TALLY_LOGIN_MAX_ATTEMPTS: "3", TALLY_TRUSTED_PROXY_HOPS: "1" })),
  );
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await t?.cleanup();
});

function login(server: TallyServer, password: string, client: string, email?: string) {
  return fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": client },
    body: JSON.stringify(email ? { email, password } : { password }),
  });
}

describe("the login throttle shared by two servers on one database", () => {
  it("counts failures that alternate between the servers together and answers 429 on either", async () => {
    const [a, b] = servers;
    expect((await login(a, "wrong", "10.9.0.1")).status).toBe(401);
    expect((await login(b, "wrong", "10.9.0.1")).status).toBe(401);
    expect((await login(a, "wrong", "10.9.0.1")).status).toBe(401);
    for (const server of [b, a]) {
      const blocked = await login(server, TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.9.0.1");
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(blocked.headers.get("set-cookie")).toBeNull();
    }
    // Another address is not affected, on either server.
    expect((await login(b, TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.9.0.2")).status).toBe(200);
  });

  it("warns before the pause, and pauses only that account from that address: a colleague behind it signs in", async () => {
    const [a, b] = servers;
    await createUser({ email: "typo@example.com", name: "Typo", role: "operator", password: "typo's password" });
    const texts: string[] = [];
    for (const server of [a, b, a]) {
      const res = await login(server, "wrong", "10.9.4.1", "typo@example.com");
      expect(res.status).toBe(401);
      texts.push(((await res.json()) as { message: string }).message);
    }
    expect(texts).toEqual([
      "Wrong e-mail or password. 2 tries left before signing in is paused for 15 minutes.",
      "Wrong e-mail or password. 1 try left before signing in is paused for 15 minutes.",
      "Wrong e-mail or password. That was the last try: signing in is now paused for 15 minutes.",
    ]);
    const paused = await login(b, "typo's password", "10.9.4.1", "typo@example.com");
    expect(paused.status).toBe(429);
    expect(((await paused.json()) as { message: string }).message).toMatch(
      /^Too many failed sign-ins: signing in is paused for \d+ minutes \(until \d\d:\d\d UTC\)\. Other accounts, and other addresses, are not affected\.$/,
    );
    // Someone else behind the same address is not locked out.
    expect((await login(a, TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.9.4.1")).status).toBe(200);
  });

  it("forgets a window once it has ended, and prunes ended windows on write", async () => {
    const window = 60_000;
    const start = Date.now() - 10 * window;
    for (let i = 0; i < 3; i++) await recordLoginFailure(pairKey("10.9.1.1", "a@example.com"), start);
    expect(await loginBlockedFor(pairKey("10.9.1.1", "a@example.com"), start + 1000)).toBe(59);
    expect(await loginBlockedFor(pairKey("10.9.1.1", "a@example.com"), start + window)).toBe(0);
    // A failure after the window starts a new count of one, and the write deletes the ended row.
    await recordLoginFailure(pairKey("10.9.1.2", "a@example.com"), start + window + 1);
    const rows = await db().$queryRaw<
      { key: string }[]
    >`SELECT "key" FROM "LoginThrottle" WHERE "key" LIKE 'pair:10.9.1.%'`;
    expect(rows.map((r) => r.key)).toEqual(["pair:10.9.1.2|a@example.com"]);
  });

  it("counts failures per account across servers and addresses, and answers 429 for that account only", async () => {
    const [a, b] = servers;
    await createUser({ email: "shared@example.com", name: "Shared", role: "operator", password: "the right password" });
    // Spread over many addresses (none reaches its own limit of 3) and both servers.
    for (let i = 0; i < 3 * ACCOUNT_FACTOR; i++) {
      expect((await login(i % 2 ? b : a, "wrong", `10.9.2.${i}`, "shared@example.com")).status).toBe(401);
    }
    for (const server of [a, b]) {
      const blocked = await login(server, "the right password", `10.9.3.${server === a ? 1 : 2}`, "shared@example.com");
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("set-cookie")).toBeNull();
    }
    // Another account, from an address that took part, is not affected.
    expect((await login(a, TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.9.2.0")).status).toBe(200);
    const rows = await db().$queryRaw<
      { failures: number | bigint }[]
    >`SELECT "failures" FROM "LoginThrottle" WHERE "key" = 'account:shared@example.com'`;
    // Attempts are counted before they are evaluated (issue 27: atomic), the two refused ones too; the
    // window still runs from the first failure, so counting them does not lengthen it.
    expect(Number(rows[0].failures)).toBe(3 * ACCOUNT_FACTOR + 2);
  });
});
