// Accounts over real HTTP on SQLite and PostgreSQL: the bootstrap admin and password-only sign-in,
// Argon2id hashes, server-side sessions that end at once, personal tokens, and the actor in the audit
// log. (Each role against every mutating route: test/route-roles.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBootstrapAdmin } from "@/lib/auth/bootstrap";
import { encodeForwarded, PRINCIPAL_HEADER } from "@/lib/auth/resolve";
import { resetPassword } from "@/lib/auth/users";
import { db } from "@/lib/db";
import { call, cookieOf, PASSWORD, sessionFor, shortSessionId, signIn } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
let admin: { cookie: string };

beforeAll(async () => {
  t = await createTestDb();
  tally = await startTally({ DATABASE_URL: t.url, TALLY_TRUSTED_PROXY_HOPS: "1" });
  admin = { cookie: cookieOf(await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD })) };
}, 120_000);
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const hashOf = async (email: string) =>
  (await db().user.findUniqueOrThrow({ where: { email }, omit: { passwordHash: false } })).passwordHash;

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

describe("the first admin", () => {
  it("is made at start-up from TALLY_OPERATOR_PASSWORD, hashed with Argon2id", async () => {
    const users = await db().user.findMany();
    expect(users.map((u) => [u.email, u.role, u.bootstrap])).toEqual([["admin@localhost", "admin", true]]);
    const hash = await hashOf("admin@localhost");
    expect(hash.startsWith("$argon2id$v=19$")).toBe(true);
    expect(hash).not.toContain(TEST_ENV.TALLY_OPERATOR_PASSWORD);
  });

  it("signs in with the password alone or with its e-mail, and GET /api/auth/me names it", async () => {
    expect(await call(tally, admin, "GET", "/api/auth/me")).toEqual({
      status: 200,
      json: { email: "admin@localhost", name: "Admin", role: "admin", kind: "user" },
    });
    const withEmail = await signIn(tally, { email: "ADMIN@localhost", password: TEST_ENV.TALLY_OPERATOR_PASSWORD });
    expect(withEmail.status).toBe(200);
    expect((await signIn(tally, { password: "not the password" })).status).toBe(401);
  });

  it("follows the environment's password until someone sets its own, then keeps that one", async () => {
    expect(await ensureBootstrapAdmin({ operatorPassword: "a changed env password" })).toBe("updated");
    expect((await signIn(tally, { password: "a changed env password" })).status).toBe(200);
    expect(await ensureBootstrapAdmin({ operatorPassword: "a changed env password" })).toBe("unchanged");
    await resetPassword("admin@localhost", "chosen by the admin");
    expect(await ensureBootstrapAdmin({ operatorPassword: TEST_ENV.TALLY_OPERATOR_PASSWORD })).toBe("unchanged");
    expect((await signIn(tally, { password: TEST_ENV.TALLY_OPERATOR_PASSWORD })).status).toBe(401);
    const own = cookieOf(await signIn(tally, { password: "chosen by the admin" }));
    // resetPassword ended the earlier sessions: sign in again for the rest of the file
    expect((await call(tally, admin, "GET", "/api/auth/me")).status).toBe(401);
    admin = { cookie: own };
    // Users exist now: a start-up never makes another admin.
    expect(await db().user.count()).toBe(1);
  });
});

describe("users", () => {
  it("an admin adds people with a role; passwords are stored as Argon2id; bad input changes nothing", async () => {
    const id = await addUser("ana@example.com", "operator");
    const row = await db().user.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ email: "ana@example.com", role: "operator", disabledAt: null });
    const hash = await hashOf("ana@example.com");
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(hash).not.toContain(PASSWORD);
    expect(
      (
        await call(tally, admin, "POST", "/api/users", {
          email: "ana@example.com",
          name: "Again",
          role: "viewer",
          password: PASSWORD,
        })
      ).status,
    ).toBe(409);
    const count = await db().user.count();
    for (const body of [
      { email: "bo@example.com", name: "Bo", role: "owner", password: PASSWORD },
      { email: "not-an-email", name: "Bo", role: "viewer", password: PASSWORD },
      { email: "bo@example.com", name: "Bo", role: "viewer", password: "short" },
    ]) {
      const r = await call(tally, admin, "POST", "/api/users", body);
      expect(r.status).toBe(400);
      expect(r.json.error).toBe("bad_request");
    }
    expect(await db().user.count()).toBe(count);
    const ana = { cookie: await sessionFor(tally, "ana@example.com") };
    expect(await call(tally, ana, "GET", "/api/auth/me")).toMatchObject({
      json: { email: "ana@example.com", role: "operator" },
    });
    expect(await call(tally, ana, "GET", "/api/users")).toMatchObject({ status: 403, json: { error: "forbidden" } });
  });

  it("refuses to disable or demote the last admin", async () => {
    const me = await db().user.findUniqueOrThrow({ where: { email: "admin@localhost" } });
    expect((await call(tally, admin, "POST", `/api/users/${me.id}/role`, { role: "viewer" })).status).toBe(409);
    expect((await call(tally, admin, "POST", `/api/users/${me.id}/disable`)).status).toBe(409);
    expect(await db().user.findUniqueOrThrow({ where: { id: me.id } })).toMatchObject({
      role: "admin",
      disabledAt: null,
    });
  });
});

describe("sessions end at once", () => {
  it("logout revokes the session row, not only the cookie", async () => {
    await addUser("cy@example.com", "viewer");
    const cookie = await sessionFor(tally, "cy@example.com");
    expect((await call(tally, { cookie }, "GET", "/api/auth/me")).status).toBe(200);
    expect((await call(tally, { cookie }, "POST", "/api/auth/logout")).status).toBe(200);
    expect(await call(tally, { cookie }, "GET", "/api/auth/me")).toMatchObject({
      status: 401,
      json: { error: "unauthorized" },
    });
    const page = await fetch(`${tally.url}/jobs`, { headers: { cookie }, redirect: "manual" });
    expect(page.status).toBe(307);
  });

  it("sign out everywhere ends every session of that person and nobody else's", async () => {
    await addUser("di@example.com", "operator");
    const one = await sessionFor(tally, "di@example.com");
    const two = await sessionFor(tally, "di@example.com");
    const other = await sessionFor(tally, "ana@example.com");
    const r = await call(tally, { cookie: one }, "POST", "/api/auth/sessions/revoke-all");
    expect(r).toEqual({ status: 200, json: { revoked: 2, tokensRevoked: 0 } });
    for (const cookie of [one, two]) expect((await call(tally, { cookie }, "GET", "/api/auth/me")).status).toBe(401);
    expect((await call(tally, { cookie: other }, "GET", "/api/auth/me")).status).toBe(200);
  });

  it("lists one's own sessions; an admin sees all and ends another person's", async () => {
    const mine = await sessionFor(tally, "ana@example.com");
    const own = await call(tally, { cookie: mine }, "GET", "/api/auth/sessions");
    const items = own.json.items as { id: string; email: string; current: boolean; clientAddress: string }[];
    expect(new Set(items.map((s) => s.email))).toEqual(new Set(["ana@example.com"]));
    expect(items.find((s) => s.current)?.id).toBe(shortSessionId(mine));
    expect(items[0].clientAddress).toMatch(/^10\.77\./);
    const all = (await call(tally, admin, "GET", "/api/auth/sessions")).json.items as { email: string }[];
    expect(all.some((s) => s.email === "admin@localhost") && all.some((s) => s.email === "ana@example.com")).toBe(true);
    // ana cannot end the admin's session; the admin can end ana's
    expect(
      (await call(tally, { cookie: mine }, "POST", `/api/auth/sessions/${shortSessionId(admin.cookie)}/revoke`)).status,
    ).toBe(403);
    expect((await call(tally, admin, "POST", `/api/auth/sessions/${shortSessionId(mine)}/revoke`)).status).toBe(200);
    expect((await call(tally, { cookie: mine }, "GET", "/api/auth/me")).status).toBe(401);
  });

  it("disabling a person or resetting their password ends their sessions; a role change applies on the next request", async () => {
    const id = await addUser("ed@example.com", "viewer");
    const cookie = await sessionFor(tally, "ed@example.com");
    expect((await call(tally, { cookie }, "POST", "/api/tokens", { name: "ed-op", role: "operator" })).status).toBe(
      403,
    );
    expect((await call(tally, admin, "POST", `/api/users/${id}/role`, { role: "operator" })).status).toBe(200);
    expect((await call(tally, { cookie }, "POST", "/api/tokens", { name: "ed-op", role: "operator" })).status).toBe(
      201,
    );
    await resetPassword("ed@example.com", "another long password");
    expect((await call(tally, { cookie }, "GET", "/api/auth/me")).status).toBe(401);
    const again = await sessionFor(tally, "ed@example.com", "another long password");
    expect((await call(tally, admin, "POST", `/api/users/${id}/disable`)).status).toBe(200);
    expect((await call(tally, { cookie: again }, "GET", "/api/auth/me")).status).toBe(401);
    expect((await signIn(tally, { email: "ed@example.com", password: "another long password" })).status).toBe(401);
  });
});

describe("changing one's own password", () => {
  it("needs the current one, ends one's other sessions and tokens and keeps this one", async () => {
    await addUser("fay@example.com", "viewer");
    const here = await sessionFor(tally, "fay@example.com");
    const elsewhere = await sessionFor(tally, "fay@example.com");
    const made = await call(tally, { cookie: elsewhere }, "POST", "/api/tokens", { name: "fay-ci", role: "viewer" });
    const token = String(made.json.token);
    const others = await sessionFor(tally, "ana@example.com");
    const othersToken = String(
      (await call(tally, { cookie: others }, "POST", "/api/tokens", { name: "ana-keeps", role: "viewer" })).json.token,
    );
    const before = await hashOf("fay@example.com");
    const wrong = await call(tally, { cookie: here }, "POST", "/api/auth/password", {
      currentPassword: "not it at all",
      newPassword: "a brand new password",
    });
    expect(wrong).toEqual({ status: 400, json: { error: "bad_request", message: "The current password is wrong" } });
    expect(await hashOf("fay@example.com")).toBe(before);
    expect((await call(tally, { cookie: elsewhere }, "GET", "/api/auth/me")).status).toBe(200);
    expect((await call(tally, { token }, "GET", "/api/auth/me")).status).toBe(200);
    const ok = await call(tally, { cookie: here }, "POST", "/api/auth/password", {
      currentPassword: PASSWORD,
      newPassword: "a brand new password",
    });
    expect(ok).toEqual({ status: 200, json: { endedSessions: 1, revokedTokens: 1 } });
    expect((await call(tally, { cookie: elsewhere }, "GET", "/api/auth/me")).status).toBe(401);
    expect((await call(tally, { token }, "GET", "/api/auth/me")).status).toBe(401);
    expect((await call(tally, { cookie: here }, "GET", "/api/auth/me")).status).toBe(200);
    // Nobody else's session or token is touched.
    expect((await call(tally, { cookie: others }, "GET", "/api/auth/me")).status).toBe(200);
    expect((await call(tally, { token: othersToken }, "GET", "/api/auth/me")).status).toBe(200);
    expect((await signIn(tally, { email: "fay@example.com", password: PASSWORD })).status).toBe(401);
    expect((await signIn(tally, { email: "fay@example.com", password: "a brand new password" })).status).toBe(200);
    expect(await hashOf("fay@example.com")).toMatch(/^\$argon2id\$/);
  });
});

describe("the proxy's hand-over", () => {
  it("cannot be sent by a client, even signed with the server's key: the proxy replaces it", async () => {
    const forged = encodeForwarded({ kind: "token", tokenId: null, name: "forged", role: "admin", userId: null });
    const bare = await fetch(`${tally.url}/api/auth/me`, { headers: { [PRINCIPAL_HEADER]: forged } });
    expect(bare.status).toBe(401);
    const page = await fetch(`${tally.url}/settings/users`, {
      headers: { [PRINCIPAL_HEADER]: forged },
      redirect: "manual",
    });
    expect(page.status).toBe(307);
    const viewer = await sessionFor(tally, "ana@example.com");
    const r = await fetch(`${tally.url}/api/auth/me`, { headers: { cookie: viewer, [PRINCIPAL_HEADER]: forged } });
    expect(await r.json()).toMatchObject({ email: "ana@example.com", role: "operator" });
  });
});

describe("personal API tokens", () => {
  it("is shown once, stored hashed, records its last use, and acts with its role", async () => {
    const ana = { cookie: await sessionFor(tally, "ana@example.com") };
    const r = await call(tally, ana, "POST", "/api/tokens", { name: "ana-ci", role: "operator", expiresInDays: 30 });
    expect(r.status).toBe(201);
    const token = String(r.json.token);
    expect(token).toMatch(/^tly_/);
    const row = await db().apiToken.findUniqueOrThrow({ where: { id: String(r.json.id) }, omit: { hash: false } });
    expect(row.hash).not.toContain(token);
    expect(row.lastUsedAt).toBeNull();
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect(await call(tally, { token }, "GET", "/api/auth/me")).toEqual({
      status: 200,
      json: { email: null, name: "token:ana-ci", role: "operator", kind: "token" },
    });
    expect((await db().apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).not.toBeNull();
    // The list never shows the token again.
    expect(JSON.stringify((await call(tally, ana, "GET", "/api/tokens")).json)).not.toContain(token);
    expect(await call(tally, { token }, "POST", "/api/subscriptions/register")).toMatchObject({
      status: 403,
      json: { error: "forbidden" },
    });
    // A token cannot make tokens, and nobody makes one above their own role.
    expect((await call(tally, { token }, "POST", "/api/tokens", { name: "chain", role: "viewer" })).status).toBe(403);
    expect((await call(tally, ana, "POST", "/api/tokens", { name: "ana-admin", role: "admin" })).status).toBe(403);
    expect((await call(tally, ana, "POST", "/api/tokens", { name: "ana-ci", role: "viewer" })).status).toBe(409);
  });

  it("a revoked or expired token answers 401 at once", async () => {
    const ana = { cookie: await sessionFor(tally, "ana@example.com") };
    const a = await call(tally, ana, "POST", "/api/tokens", { name: "to-revoke", role: "viewer" });
    const b = await call(tally, ana, "POST", "/api/tokens", { name: "to-expire", role: "viewer", expiresInDays: 1 });
    for (const x of [a, b])
      expect((await call(tally, { token: String(x.json.token) }, "GET", "/api/overview")).status).toBe(200);
    expect((await call(tally, ana, "POST", `/api/tokens/${a.json.id}/revoke`)).status).toBe(200);
    await db().apiToken.update({ where: { id: String(b.json.id) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    for (const x of [a, b]) {
      expect(await call(tally, { token: String(x.json.token) }, "GET", "/api/overview")).toMatchObject({
        status: 401,
        json: { error: "unauthorized" },
      });
      const page = await fetch(`${tally.url}/jobs`, {
        headers: { authorization: `Bearer ${x.json.token}` },
        redirect: "manual",
      });
      expect(page.status).toBe(307);
    }
  });

  it("TALLY_API_TOKEN still works, as an admin token named env", async () => {
    expect(await call(tally, { token: TEST_ENV.TALLY_API_TOKEN }, "GET", "/api/auth/me")).toEqual({
      status: 200,
      json: { email: null, name: "token:env", role: "admin", kind: "token" },
    });
  });
});

describe("audit entries name the actor", () => {
  it("as the user's e-mail, token:{name} or system, and the list filters by actor", async () => {
    const ana = { cookie: await sessionFor(tally, "ana@example.com") };
    const token = String(
      (await call(tally, ana, "POST", "/api/tokens", { name: "audit-probe", role: "operator" })).json.token,
    );
    expect((await call(tally, { token }, "POST", "/api/operations/reconcile", {})).status).toBe(202);
    const byToken = (await call(tally, admin, "GET", "/api/audit?actor=token:audit-probe")).json.items as {
      actor: string;
      action: string;
    }[];
    expect(byToken.map((a) => [a.actor, a.action])).toEqual([["token:audit-probe", "operations.reconcile"]]);
    const byAna = (await call(tally, admin, "GET", "/api/audit?actor=ana@example.com&limit=100")).json.items as {
      actor: string;
      action: string;
    }[];
    expect(byAna.length).toBeGreaterThan(2);
    expect(new Set(byAna.map((a) => a.actor))).toEqual(new Set(["ana@example.com"]));
    expect(byAna.map((a) => a.action)).toEqual(expect.arrayContaining(["login", "tokens.create", "tokens.revoke"]));
    const bySystem = (await call(tally, admin, "GET", "/api/audit?actor=system")).json.items as { action: string }[];
    expect(bySystem.map((a) => a.action)).toContain("users.bootstrap");
    const users = (await call(tally, admin, "GET", "/api/audit?actor=admin@localhost&limit=100")).json.items as {
      action: string;
      target: string;
    }[];
    expect(users).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "users.create", target: "ana@example.com" })]),
    );
  });
});
