// Each role against every mutating operator route: allowed → 2xx, not allowed → 403
// {"error":"forbidden","message"} naming the role needed, and nothing changed. The table below is the
// contract (docs/operations/accounts.md, "Roles and routes", must say the same); it is checked against the routes discovered under app/, so a
// new mutating route fails here until someone decides its role. Runs on SQLite and PostgreSQL.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, resetPassword } from "@/lib/auth/users";
import { ROLES, roleAtLeast, type Role } from "@/lib/auth/roles";
import { db } from "@/lib/db";
import { call, PASSWORD, sessionFor, shortSessionId, type As } from "./accounts-helpers";
import { createTestDb, type TestDb } from "./db";
import { routes } from "./routes";
import { startTally, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
let alertSink: Server;
const email = (role: Role) => `${role}@roles.test`;

beforeAll(async () => {
  t = await createTestDb();
  // A webhook alert channel that answers 200, so a test alert can succeed.
  alertSink = createServer((req, res) => req.resume().on("end", () => res.end("ok")));
  await new Promise<void>((r) => alertSink.listen(0, "127.0.0.1", () => r()));
  const alertUrl = `http://127.0.0.1:${(alertSink.address() as AddressInfo).port}/alerts`;
  tally = await startTally({ DATABASE_URL: t.url, TALLY_TRUSTED_PROXY_HOPS: "1", TALLY_ALERT_WEBHOOK_URL: alertUrl });
  for (const role of ROLES) await createUser({ email: email(role), name: `The ${role}`, role, password: PASSWORD });
  // Demo mode's platform answers some calls with 5xx and 429 on purpose; a rotation's POST is not
  // retried, so the faults are switched off here: this file is about roles, not resilience.
  const quiet = await call(
    tally,
    { cookie: await sessionFor(tally, email("admin")) },
    "POST",
    "/api/simulator/config",
    { serverErrorRate: 0, rateLimitRate: 0, slowResponseRate: 0 },
  );
  if (quiet.status !== 200) throw new Error(`simulator knobs: ${quiet.status} ${JSON.stringify(quiet.json)}`);
}, 120_000);
afterAll(async () => {
  await tally?.stop();
  alertSink?.close();
  await t?.cleanup();
});

type Ctx = { role: Role; as: { cookie: string }; admin: { cookie: string } };
type Request = { path: string; body?: unknown };
const unique = () => randomUUID().slice(0, 8);

async function adminCreated<T>(
  path: string,
  body: unknown,
  pick: (json: Record<string, unknown>) => T,
  admin: As,
): Promise<T> {
  const r = await call(tally, admin, "POST", path, body);
  if (r.status >= 300) throw new Error(`fixture ${path}: ${r.status} ${JSON.stringify(r.json)}`);
  return pick(r.json);
}
/** The n-th subscription demo mode registered (rotate and set-secret each take their own: a running
 * rotation holds its subscription). */
async function someSubscription(admin: As, n = 0): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const r = await call(tally, admin, "GET", "/api/subscriptions");
    const items = (r.json.items ?? []) as { id: string }[];
    if (items.length > n) return items[n].id;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error("demo mode registered no subscription");
}
const destination = (admin: As) =>
  adminCreated(
    "/api/destinations",
    { url: `https://example.com/hook/${unique()}`, events: ["job.stored"] },
    (j) => String(j.id),
    admin,
  );
const throwawayUser = async () =>
  (await createUser({ email: `x-${unique()}@roles.test`, name: "Throwaway", role: "viewer", password: PASSWORD })).id;

// The contract: the lowest role for each mutating route, and a request that succeeds for it.
const MUTATIONS: Record<
  string,
  { role: Role; request: (c: Ctx) => Promise<Request>; after?: (c: Ctx) => Promise<unknown> }
> = {
  "POST /api/auth/password": {
    role: "viewer",
    request: async () => ({
      path: "/api/auth/password",
      body: { currentPassword: PASSWORD, newPassword: `${PASSWORD} changed` },
    }),
    after: (c) => resetPassword(email(c.role), PASSWORD),
  },
  "POST /api/auth/logout": { role: "viewer", request: async () => ({ path: "/api/auth/logout" }) },
  "POST /api/auth/sessions/revoke-all": {
    role: "viewer",
    request: async () => ({ path: "/api/auth/sessions/revoke-all" }),
  },
  "POST /api/auth/sessions/{id}/revoke": {
    role: "viewer",
    request: async (c) => ({
      path: `/api/auth/sessions/${shortSessionId(await sessionFor(tally, email(c.role)))}/revoke`,
    }),
  },
  "POST /api/tokens": {
    role: "viewer",
    request: async () => ({ path: "/api/tokens", body: { name: `t-${unique()}`, role: "viewer" } }),
  },
  "POST /api/tokens/{id}/revoke": {
    role: "viewer",
    request: async (c) => ({
      path: `/api/tokens/${await adminCreated("/api/tokens", { name: `t-${unique()}`, role: "viewer" }, (j) => String(j.id), c.as)}/revoke`,
    }),
  },
  "POST /api/jobs/{id}/cancel": {
    role: "operator",
    request: async (c) => {
      // A batch that keeps running for a minute, so there is something to cancel.
      await adminCreated("/api/simulator/config", { jobDurationMs: [60_000, 60_000] }, () => null, c.admin);
      const jobId = await adminCreated(
        "/api/jobs",
        { kind: "batch", urls: ["https://example.com/a", "https://example.com/b"] },
        (j) => String(j.jobId),
        c.admin,
      );
      return { path: `/api/jobs/${jobId}/cancel` };
    },
  },
  "POST /api/jobs": {
    role: "operator",
    request: async () => ({ path: "/api/jobs", body: { kind: "extract", url: "https://example.com/page" } }),
  },
  "POST /api/runs": {
    role: "operator",
    request: async () => ({ path: "/api/runs", body: { urls: [`https://example.com/run/${unique()}`] } }),
  },
  "POST /api/collections": {
    role: "operator",
    request: async () => ({
      path: "/api/collections",
      body: { name: `c ${unique()}`, urls: ["https://example.com/col/1"] },
    }),
  },
  "POST /api/collections/{id}": {
    role: "operator",
    request: async (c) => {
      const id = await adminCreated(
        "/api/collections",
        { name: "c", urls: ["https://example.com/col/2"] },
        (j) => String(j.id),
        c.admin,
      );
      return { path: `/api/collections/${id}`, body: { overlap: "queue" } };
    },
  },
  "POST /api/collections/{id}/run": {
    role: "operator",
    request: async (c) => {
      const id = await adminCreated(
        "/api/collections",
        { name: "c", urls: [`https://example.com/col/${unique()}`] },
        (j) => String(j.id),
        c.admin,
      );
      return { path: `/api/collections/${id}/run` };
    },
  },
  "POST /api/collections/{id}/pause": {
    role: "operator",
    request: async (c) => {
      const id = await adminCreated(
        "/api/collections",
        { name: "c", urls: ["https://example.com/col/3"] },
        (j) => String(j.id),
        c.admin,
      );
      return { path: `/api/collections/${id}/pause` };
    },
  },
  "POST /api/collections/{id}/resume": {
    role: "operator",
    request: async (c) => {
      const id = await adminCreated(
        "/api/collections",
        { name: "c", urls: ["https://example.com/col/4"] },
        (j) => String(j.id),
        c.admin,
      );
      return { path: `/api/collections/${id}/resume` };
    },
  },
  "POST /api/runs/{id}/cancel": {
    role: "operator",
    request: async (c) => {
      const runId = await adminCreated(
        "/api/runs",
        { urls: ["https://example.com/r/1"] },
        (j) => String(j.id),
        c.admin,
      );
      return { path: `/api/runs/${runId}/cancel` };
    },
  },
  "POST /api/runs/{id}/retry-failed": {
    role: "operator",
    request: async (c) => {
      // A cancelled run: its URLs are failed (cancelled), so there is something to retry.
      const runId = await adminCreated(
        "/api/runs",
        { urls: ["https://example.com/r/2"] },
        (j) => String(j.id),
        c.admin,
      );
      await adminCreated(`/api/runs/${runId}/cancel`, undefined, () => null, c.admin);
      return { path: `/api/runs/${runId}/retry-failed` };
    },
  },
  "POST /api/operations/replay": {
    role: "operator",
    request: async () => ({ path: "/api/operations/replay", body: {} }),
  },
  "POST /api/operations/reconcile": {
    role: "operator",
    request: async () => ({ path: "/api/operations/reconcile", body: {} }),
  },
  "POST /api/alerts/test": {
    role: "operator",
    request: async () => ({ path: "/api/alerts/test", body: { channel: "webhook" } }),
  },
  "POST /api/alerts/{id}/acknowledge": {
    role: "operator",
    request: async () => {
      // A rule that really fires (an open dead letter), so an evaluation in between keeps it firing.
      await db().deadLetter.create({
        data: { jobId: `job-roles-${unique()}`, kind: "process_job", errorCode: "X", errorMessage: "roles" },
      });
      await db().alertState.upsert({
        where: { rule: "dead_letters" },
        create: { rule: "dead_letters", state: "firing", since: new Date() },
        update: { state: "firing", acknowledgedAt: null, acknowledgedBy: null },
      });
      return { path: "/api/alerts/dead_letters/acknowledge" };
    },
  },
  "POST /api/alerts/{id}/silence": {
    role: "operator",
    request: async () => ({ path: "/api/alerts/queue_stalled/silence", body: { minutes: 60, note: "roles" } }),
  },
  "DELETE /api/alerts/{id}/silence": {
    role: "operator",
    request: async () => ({ path: "/api/alerts/queue_stalled/silence" }),
  },
  "POST /api/dead-letters/retry": {
    role: "operator",
    request: async () => ({ path: "/api/dead-letters/retry", body: { ids: [999_999] } }),
  },
  "POST /api/dead-letters/discard": {
    role: "operator",
    request: async () => ({ path: "/api/dead-letters/discard", body: { ids: [999_999], reason: "role test" } }),
  },
  "POST /api/outbound/replay": {
    role: "operator",
    request: async (c) => ({
      path: "/api/outbound/replay",
      body: { destinationId: await destination(c.admin), since: new Date(Date.now() - 60_000).toISOString() },
    }),
  },
  "POST /api/subscriptions/{id}/replay-401s": {
    role: "operator",
    request: async (c) => ({ path: `/api/subscriptions/${await someSubscription(c.admin, 2)}/replay-401s` }),
  },
  "POST /api/subscriptions/{id}/rotate": {
    role: "admin",
    request: async (c) => ({ path: `/api/subscriptions/${await someSubscription(c.admin)}/rotate` }),
  },
  "POST /api/subscriptions/{id}/secret": {
    role: "admin",
    request: async (c) => ({
      path: `/api/subscriptions/${await someSubscription(c.admin, 1)}/secret`,
      body: { secret: `whsec-${unique()}-set-elsewhere` },
    }),
  },
  "POST /api/subscriptions/register": { role: "admin", request: async () => ({ path: "/api/subscriptions/register" }) },
  "POST /api/simulator/config": {
    role: "admin",
    request: async () => ({ path: "/api/simulator/config", body: { failureRate: 0.05 } }),
  },
  "POST /api/destinations": {
    role: "admin",
    request: async () => ({
      path: "/api/destinations",
      body: { url: `https://example.com/hook/${unique()}`, events: ["job.stored"] },
    }),
  },
  "POST /api/destinations/{id}/disable": {
    role: "admin",
    request: async (c) => ({ path: `/api/destinations/${await destination(c.admin)}/disable` }),
  },
  "POST /api/destinations/{id}/enable": {
    role: "admin",
    request: async (c) => ({ path: `/api/destinations/${await destination(c.admin)}/enable` }),
  },
  "POST /api/users": {
    role: "admin",
    request: async () => ({
      path: "/api/users",
      body: { email: `new-${unique()}@roles.test`, name: "New", role: "viewer", password: PASSWORD },
    }),
  },
  "POST /api/users/{id}/disable": {
    role: "admin",
    request: async () => ({ path: `/api/users/${await throwawayUser()}/disable` }),
  },
  "POST /api/users/{id}/role": {
    role: "admin",
    request: async () => ({ path: `/api/users/${await throwawayUser()}/role`, body: { role: "operator" } }),
  },
  "POST /api/users/{id}/reset-password": {
    role: "admin",
    request: async () => ({
      path: `/api/users/${await throwawayUser()}/reset-password`,
      body: { password: "a reset password here" },
    }),
  },
};

const discovered = routes("{id}")
  .filter(
    (r) =>
      r.method !== "GET" && r.url.startsWith("/api/") && !r.url.startsWith("/api/cron/") && r.url !== "/api/auth/login",
  )
  .map((r) => `${r.method} ${decodeURIComponent(r.url)}`);

describe("roles against every mutating route", () => {
  it("has decided the role of every mutating route under app/api (a new route must be added here and to the docs)", () => {
    expect(Object.keys(MUTATIONS).sort()).toEqual([...discovered].sort());
  });

  it("the operators' docs state the same lowest role for every mutating route (docs/operations/accounts.md)", () => {
    const docs = readFileSync("docs/operations/accounts.md", "utf8");
    const section = docs.slice(docs.indexOf("## Roles and routes"));
    const table = section.slice(0, section.indexOf("\n## ", 1));
    const documented: Record<string, string> = {};
    for (const row of table.matchAll(/^\| (.+) \| (\w+) \|$/gm)) {
      for (const route of row[1].matchAll(/`((?:POST|DELETE) \/api\/[^`]+)`/g)) {
        documented[route[1].replace(/\{\w+\}/g, "{id}")] = row[2];
      }
    }
    const stated = Object.fromEntries(Object.entries(MUTATIONS).map(([route, m]) => [route, m.role]));
    expect(documented).toEqual(stated);
  });

  const cases = Object.entries(MUTATIONS).flatMap(([route, m]) =>
    ROLES.map((role) => ({ route, role, needed: m.role, allowed: roleAtLeast(role, m.role) })),
  );
  it.each(cases)("$route as $role (needs $needed)", async ({ route, role, needed, allowed }) => {
    const m = MUTATIONS[route];
    const ctx: Ctx = {
      role,
      as: { cookie: await sessionFor(tally, email(role)) },
      admin: { cookie: await sessionFor(tally, email("admin")) },
    };
    const req = await m.request(ctx);
    const auditBefore = await db().auditLog.count();
    const method = route.split(" ")[0];
    const r = await call(tally, ctx.as, method, req.path, method === "DELETE" ? undefined : (req.body ?? {}));
    if (allowed) {
      expect(r.status, JSON.stringify(r.json)).toBeGreaterThanOrEqual(200);
      expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
      await m.after?.(ctx);
    } else {
      expect(r.status).toBe(403);
      expect(r.json).toEqual({
        error: "forbidden",
        message: `${method} ${req.path} needs the ${needed} role; ${email(role)} is a${role === "operator" ? "n" : ""} ${role}`,
      });
      // Refused before the handler ran: not even an audit row.
      expect(await db().auditLog.count()).toBe(auditBefore);
    }
  });
});
