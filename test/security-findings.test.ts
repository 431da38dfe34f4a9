// Issue 27's security findings over real HTTP against Tally's server (run `npm run build` first), on
// SQLite and PostgreSQL: each test here failed on the code before the fix (see the commit messages).
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { call, cookieOf, PASSWORD, sessionFor, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { TEST_STORE } from "./store";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";
import { deliver, envelope } from "./webhook-client";

const ALERT_TOKEN = "alertQueryToken77Hx";
const FORWARD_TOKEN = "forwardQueryTokenK2m";
const DB_PASSWORD = "pgUnusedPassword55";
const FORWARD_SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;

let t: TestDb;
let tally: TallyServer;
let admin: { cookie: string };

beforeAll(async () => {
  t = await createTestDb();
  // PostgreSQL here trusts local connections: a password in the URL is accepted and ignored, so the
  // server runs with a DATABASE_URL that carries one (SQLite URLs have none to show).
  const withPassword = new URL(t.url);
  withPassword.password = DB_PASSWORD;
  const dbUrl = TEST_STORE === "postgres" ? withPassword.toString() : t.url;
  tally = await startTally({
    DATABASE_URL: dbUrl,
    TALLY_TRUSTED_PROXY_HOPS: "1",
    TALLY_ALERT_WEBHOOK_URL: `http://127.0.0.1:9/alerts?token=${ALERT_TOKEN}`,
    TALLY_FORWARD_URL: `http://127.0.0.1:9/in?access_token=${FORWARD_TOKEN}`,
    TALLY_FORWARD_SECRET: FORWARD_SECRET,
    TALLY_WORKER: "off",
  });
  admin = { cookie: cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD })) };
}, 120_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

async function addUser(email: string, role: "viewer" | "operator" | "admin") {
  const r = await call(tally, admin, "POST", "/api/users", {
    email,
    name: email.split("@")[0],
    role,
    password: PASSWORD,
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return String(r.json.id);
}

async function page(path: string, cookie: string) {
  const res = await fetch(tally.url + path, { headers: { cookie }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

describe("finding 1: the Settings page", () => {
  it("shows a viewer no secret-bearing value, and nobody a URL's password or query token", async () => {
    await addUser("vera@example.com", "viewer");
    const viewer = await sessionFor(tally, "vera@example.com");
    const asViewer = await page("/settings", viewer);
    const asAdmin = await page("/settings", admin.cookie);
    expect(asViewer.status).toBe(200);
    expect(asAdmin.status).toBe(200);
    for (const html of [asViewer.html, asAdmin.html]) {
      for (const secret of [ALERT_TOKEN, FORWARD_TOKEN, DB_PASSWORD, FORWARD_SECRET, TEST_ENV.TALLY_API_TOKEN])
        expect(html).not.toContain(secret);
      expect(html).toContain("access_token=••••");
    }
    // last 4 of the API token, the session secret and the first admin's password: admins only
    for (const s of [TEST_ENV.TALLY_API_TOKEN, TEST_ENV.TALLY_SESSION_SECRET, TEST_ENV.TALLY_OPERATOR_PASSWORD]) {
      expect(asAdmin.html).toContain(`••••${s.slice(-4)}`);
      expect(asViewer.html).not.toContain(`••••${s.slice(-4)}`);
    }
    expect(asViewer.html).toContain("(hidden)");
    const alerts = await call(tally, { cookie: viewer }, "GET", "/api/alerts");
    expect(alerts.status).toBe(200);
    expect(JSON.stringify(alerts.json)).not.toContain(ALERT_TOKEN);
  });
});

describe("finding 2: destinations refuse private addresses", () => {
  it("answers 400 with the reason and stores nothing", async () => {
    for (const url of [
      "http://127.0.0.1:4010/_sim/config",
      "http://localhost:9/x",
      "http://169.254.169.254/latest/meta-data/",
      "http://2130706433/",
      "http://[::1]/",
      `${tally.url}/api/jobs`,
    ]) {
      const r = await call(tally, admin, "POST", "/api/destinations", { url, events: ["job.stored"] });
      expect(r.status, url).toBe(400);
      expect(String(r.json.message)).toMatch(/^Refused destination URL: /);
    }
    expect(await db().destination.count({ where: { source: "api" } })).toBe(0);
  });
});

describe("finding 3: sign-in redirect", () => {
  // The page hands the sign-in form its target as a prop ({"next": …} in the page's payload); the form
  // goes there after signing in.
  async function target(next: string): Promise<string> {
    const res = await fetch(`${tally.url}/login?next=${next}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const start = html.indexOf('{\\"next\\":\\"');
    expect(start, "the form's target in the page").toBeGreaterThan(0);
    const rest = html.slice(start + '{\\"next\\":\\"'.length);
    return rest.slice(0, rest.indexOf('\\"}'));
  }

  it.each(["/%5Cevil.example", "/%09/evil.example", "//evil.example", "https://evil.example/", "/%5C/evil.example"])(
    "the login page never sends the browser to %s",
    async (next) => {
      expect(await target(next)).toBe("/");
    },
  );

  it("keeps a same-origin path", async () => {
    expect(await target(encodeURIComponent("/jobs?status=failed"))).toBe("/jobs?status=failed");
  });
});

describe("low findings", () => {
  it("refuses a whsec_ secret whose key is shorter than 24 bytes, whatever the scheme", async () => {
    await db().subscription.create({
      data: { id: "sub-sec", eventType: "extract_completed", url: "http://x", secret: "old-secret-0123456789" },
    });
    for (const secret of ["whsec_********", "whsec_", `whsec_${Buffer.alloc(16, 1).toString("base64")}`]) {
      const r = await call(tally, admin, "POST", "/api/subscriptions/sub-sec/secret", { secret });
      expect(r.status, secret).toBe(400);
      expect(String(r.json.message)).toMatch(/24 bytes|at least 8 characters/);
    }
    const row = await db().subscription.findUniqueOrThrow({ where: { id: "sub-sec" }, omit: { secret: false } });
    expect(row.secret).toBe("old-secret-0123456789");
  });

  it("an admin resets a password: sessions end, tokens are revoked, the audit log says who", async () => {
    const id = await addUser("rita@example.com", "operator");
    const rita = { cookie: await sessionFor(tally, "rita@example.com") };
    const made = await call(tally, rita, "POST", "/api/tokens", { name: "rita-ci", role: "viewer" });
    expect(made.status).toBe(201);
    const token = String(made.json.token);
    // not for operators, and a short password is refused
    expect(
      (await call(tally, rita, "POST", `/api/users/${id}/reset-password`, { password: "x".repeat(12) })).status,
    ).toBe(403);
    expect((await call(tally, admin, "POST", `/api/users/${id}/reset-password`, { password: "short" })).status).toBe(
      400,
    );
    const r = await call(tally, admin, "POST", `/api/users/${id}/reset-password`, { password: "a brand new password" });
    expect(r).toEqual({
      status: 200,
      json: { id, email: "rita@example.com", sessionsEnded: 1, tokensRevoked: 1 },
    });
    expect((await call(tally, rita, "GET", "/api/auth/me")).status).toBe(401);
    expect((await call(tally, { token }, "GET", "/api/auth/me")).status).toBe(401);
    expect((await signIn(tally, { email: "rita@example.com", password: "a brand new password" })).status).toBe(200);
    const audit = await db().auditLog.findFirstOrThrow({ where: { action: "users.reset_password" } });
    expect(audit).toMatchObject({ actor: "admin@localhost", target: "rita@example.com", ok: true });
    expect(audit.detail).not.toContain("a brand new password");
  });

  it("sign out everywhere revokes the caller's tokens when asked to", async () => {
    await addUser("sam@example.com", "viewer");
    const sam = { cookie: await sessionFor(tally, "sam@example.com") };
    const token = String(
      (await call(tally, sam, "POST", "/api/tokens", { name: "sam-ci", role: "viewer" })).json.token,
    );
    const r = await call(tally, sam, "POST", "/api/auth/sessions/revoke-all", { revokeTokens: true });
    expect(r).toEqual({ status: 200, json: { revoked: 1, tokensRevoked: 1 } });
    expect((await call(tally, { token }, "GET", "/api/auth/me")).status).toBe(401);
  });

  it("evaluates at most the limit of 16 parallel wrong guesses (the throttle is atomic)", async () => {
    const address = "10.99.0.1";
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        signIn(tally, { email: "ghost@example.com", password: "not the password at all" }, address),
      ),
    );
    const statuses = answers.map((a) => a.status);
    const evaluated = await db().auditLog.count({
      where: { action: "login", ok: false, detail: { contains: address } },
    });
    expect(evaluated).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 401).length).toBe(evaluated);
    expect(statuses.filter((s) => s === 429).length).toBe(16 - evaluated);
  });

  it("answers an oversized sign-in and an anonymous upload before reading their bodies", async () => {
    // Headers announce a large body; only a few bytes are sent. A server that buffered it would wait.
    const early = (path: string, length: number) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request(`${tally.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", "content-length": String(length), origin: tally.url },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("error", reject);
        req.write("{");
        setTimeout(() => reject(new Error("no answer within 5 s: the body is being read")), 5000).unref();
      });
    expect(await early("/api/auth/login", 100_000)).toBe(413);
    expect(await early("/api/jobs", 10 * 1024 * 1024)).toBe(401);
  });

  it("refuses signed deliveries on an inactive subscription's path", async () => {
    const secret = "inactive-subscription-secret-01";
    await db().subscription.create({
      data: { id: "sub-off", eventType: "extract_completed", url: "http://x", secret, isActive: false },
    });
    const r = await deliver(`${tally.url}/webhooks/geonode/sub-off`, envelope("job-inactive-1"), { secret });
    expect(r.status).toBe(410);
    expect(await db().receipt.count({ where: { jobId: "job-inactive-1" } })).toBe(0);
  });

  it("marks JSON answers carrying secrets or tokens Cache-Control: no-store", async () => {
    const made = await fetch(`${tally.url}/api/tokens`, {
      method: "POST",
      headers: { cookie: admin.cookie, origin: tally.url, "content-type": "application/json" },
      body: JSON.stringify({ name: "cache-check", role: "viewer" }),
    });
    expect(made.status).toBe(201);
    expect(made.headers.get("cache-control")).toBe("no-store");
    const rotated = await fetch(`${tally.url}/api/users`, { headers: { cookie: admin.cookie } });
    expect(rotated.headers.get("cache-control")).toBe("no-store");
  });

  it("refuses NUL characters in any JSON body with 400, on both stores", async () => {
    const before = await db().job.count();
    const jobs = await call(tally, admin, "POST", "/api/jobs", { kind: "extract", url: "https://example.com/\u0000x" });
    expect(jobs.status).toBe(400);
    expect(String(jobs.json.message)).toMatch(/NUL/);
    const nested = await call(tally, admin, "POST", "/api/users", {
      email: "nul@example.com",
      name: "N\u0000",
      role: "viewer",
      password: PASSWORD,
    });
    expect(nested.status).toBe(400);
    const login = await fetch(`${tally.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: tally.url },
      body: JSON.stringify({ email: "a\u0000@example.com", password: "x" }),
    });
    expect(login.status).toBe(400);
    expect(await db().job.count()).toBe(before);
    expect(await db().user.count({ where: { email: "nul@example.com" } })).toBe(0);
  });
});
