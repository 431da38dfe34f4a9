import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let tally: TallyServer;
beforeAll(async () => {
  // The tests play a trusted reverse proxy that appends the client's address to X-Forwarded-For.
  tally = await startTally({ TALLY_LOGIN_MAX_ATTEMPTS: "3", TALLY_TRUSTED_PROXY_HOPS: "1" });
});
afterAll(async () => {
  await tally?.stop();
});

function login(password: string, client = "10.0.0.1", origin = tally.url) {
  return fetch(`${tally.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin, "x-forwarded-for": client },
    body: JSON.stringify({ password }),
  });
}

function sessionCookie(res: Response): string {
  const cookie = res.headers.get("set-cookie") ?? "";
  return cookie.split(";")[0];
}

describe("operator login", () => {
  it("sets an opaque, httpOnly, SameSite=Lax cookie with an expiry that opens the pages", async () => {
    const res = await login(TEST_ENV.TALLY_OPERATOR_PASSWORD);
    expect(res.status).toBe(200);
    const raw = res.headers.get("set-cookie") ?? "";
    expect(raw).toMatch(/^tally_session=/);
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=lax/i);
    expect(raw).toMatch(/Expires=/i);
    const page = await fetch(`${tally.url}/settings`, { headers: { cookie: sessionCookie(res) }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Settings");
  });

  it("refuses a wrong password with 401 and throttles repeated failures with 429", async () => {
    const client = "10.0.0.2";
    for (let i = 0; i < 3; i++) expect((await login("wrong password", client)).status).toBe(401);
    const blocked = await login(TEST_ENV.TALLY_OPERATOR_PASSWORD, client);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    // another client is not affected
    expect((await login(TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.0.0.3")).status).toBe(200);
  });

  it("does not let a client escape the throttle by writing its own X-Forwarded-For", async () => {
    // No trusted proxy: the address is the connection's, and the header is the client's word only.
    const direct = await startTally({ TALLY_LOGIN_MAX_ATTEMPTS: "3" });
    try {
      const attempt = (password: string, claimed: string) =>
        fetch(`${direct.url}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: direct.url, "x-forwarded-for": claimed },
          body: JSON.stringify({ password }),
        });
      for (let i = 0; i < 3; i++) expect((await attempt("wrong password", `10.1.0.${i}`)).status).toBe(401);
      expect((await attempt(TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.1.0.99")).status).toBe(429);
      // Nor by naming the address header Tally's server passes to Next.
      const spoofed = await fetch(`${direct.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: direct.url, "x-tally-client-address": "10.1.0.100" },
        body: JSON.stringify({ password: TEST_ENV.TALLY_OPERATOR_PASSWORD }),
      });
      expect(spoofed.status).toBe(429);
    } finally {
      await direct.stop();
    }
  });

  it("rejects an empty or malformed login body with 400", async () => {
    const res = await fetch(`${tally.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: tally.url },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: "bad_request" });
  });

  it("refuses forged cookies and sessions that have ended or expired", async () => {
    const valid = sessionCookie(await login(TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.0.0.5"));
    const expiring = sessionCookie(await login(TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.0.0.6"));
    const sql = await openSql(tally.dbUrl);
    await sql.run(
      "UPDATE Session SET expiresAt = ? WHERE id = ?",
      new Date(Date.now() - 1000),
      createHash("sha256").update(expiring.split("=")[1]).digest("hex"),
    );
    await sql.close();
    const forged = `tally_session=${"A".repeat(43)}`;
    for (const [cookie, status] of [
      [forged, 307],
      [expiring, 307],
      [valid, 200],
    ] as const) {
      const res = await fetch(`${tally.url}/jobs`, { headers: { cookie }, redirect: "manual" });
      expect(res.status, cookie).toBe(status);
    }
  });

  it("accepts the bearer token for scripts", async () => {
    const res = await fetch(`${tally.url}/jobs`, {
      headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` },
      redirect: "manual",
    });
    expect(res.status).toBe(200);
  });

  it("refuses a cross-origin mutation with a valid session (CSRF)", async () => {
    const cookie = sessionCookie(await login(TEST_ENV.TALLY_OPERATOR_PASSWORD, "10.0.0.4"));
    const evil = await fetch(`${tally.url}/api/auth/logout`, {
      method: "POST",
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    const none = await fetch(`${tally.url}/api/auth/logout`, { method: "POST", headers: { cookie } });
    expect(none.status).toBe(403);
    const ok = await fetch(`${tally.url}/api/auth/logout`, { method: "POST", headers: { cookie, origin: tally.url } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("set-cookie")).toMatch(/tally_session=;/);
  });

  it("writes sign-ins and failures to the audit log", async () => {
    const sql = await openSql(tally.dbUrl);
    const rows = await sql.all<{ action: string; ok: number }>("SELECT action, ok FROM AuditLog");
    await sql.close();
    expect(rows.some((r) => r.action === "login" && r.ok === 1)).toBe(true);
    expect(rows.some((r) => r.action === "login" && r.ok === 0)).toBe(true);
    expect(rows.some((r) => r.action === "logout")).toBe(true);
  });
});
