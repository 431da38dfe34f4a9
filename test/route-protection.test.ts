// Walks every page and route handler under app/ and asserts none answers without a session or token,
// except the login, the health and readiness checks and the receiver. A new route left open makes this fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages as discoverPages, routes as discoverRoutes } from "./routes";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const PUBLIC = new Set(["/login", "/api/health", "/api/ready", "/api/auth/login"]);
const pages = discoverPages();
const routes = discoverRoutes();
// Scheduled triggers: only `Authorization: Bearer $TALLY_CRON_SECRET` opens them, never a session or the API token.
const isCron = (url: string) => url.startsWith("/api/cron/");

let tally: TallyServer;
beforeAll(async () => {
  tally = await startTally();
});
afterAll(async () => {
  await tally?.stop();
});

describe("route protection", () => {
  it("found the seven sections and the API", () => {
    for (const p of ["/", "/jobs", "/deliveries", "/subscriptions", "/dead-letters", "/operations", "/settings"]) {
      expect(pages).toContain(p);
    }
    expect(routes.length).toBeGreaterThan(2);
  });

  it.each(pages.filter((p) => !PUBLIC.has(p)))("page %s redirects to the login", async (p) => {
    const res = await fetch(tally.url + p, { redirect: "manual" });
    expect(res.status).toBe(307);
    expect(new URL(res.headers.get("location") ?? "", tally.url).pathname).toBe("/login");
  });

  it.each(routes.filter((r) => !PUBLIC.has(r.url) && !r.url.startsWith("/webhooks")))(
    "$method $url answers 401 without a session",
    async ({ method, url }) => {
      const variants: Record<string, string>[] = [
        {},
        { authorization: "Bearer wrong-token-0123456789" },
        { cookie: "tally_session=forged.jwt.value" },
      ];
      for (const headers of variants) {
        const res = await fetch(tally.url + url, {
          method,
          headers: { "content-type": "application/json", origin: tally.url, ...headers },
          body: method === "GET" ? undefined : "{}",
          redirect: "manual",
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ error: "unauthorized" });
      }
    },
  );

  it.each(
    routes.filter((r) => r.method !== "GET" && r.url.startsWith("/api/") && !PUBLIC.has(r.url) && !isCron(r.url)),
  )("$method $url refuses a valid session from another origin (CSRF)", async ({ method, url }) => {
    const login = await fetch(`${tally.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: tally.url, "x-forwarded-for": `10.9.${url.length}.1` },
      body: JSON.stringify({ password: TEST_ENV.TALLY_OPERATOR_PASSWORD }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    expect(cookie).toMatch(/^tally_session=./);
    for (const origin of ["https://evil.example", null]) {
      const res = await fetch(tally.url + url, {
        method,
        headers: { cookie, "content-type": "application/json", ...(origin ? { origin } : {}) },
        body: "{}",
      });
      expect(res.status, `origin ${origin}`).toBe(403);
    }
  });

  it("found the seven cron routes, by POST and GET", () => {
    const cron = routes.filter((r) => isCron(r.url));
    expect(cron.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      "GET /api/cron/alerts",
      "GET /api/cron/bodies-sweep",
      "GET /api/cron/collections",
      "GET /api/cron/poll",
      "GET /api/cron/reconcile",
      "GET /api/cron/retention",
      "GET /api/cron/work",
      "POST /api/cron/alerts",
      "POST /api/cron/bodies-sweep",
      "POST /api/cron/collections",
      "POST /api/cron/poll",
      "POST /api/cron/reconcile",
      "POST /api/cron/retention",
      "POST /api/cron/work",
    ]);
  });

  it.each(routes.filter((r) => isCron(r.url)))(
    "$method $url answers 401 to a valid session and to the API token (cron secret only)",
    async ({ method, url }) => {
      const login = await fetch(`${tally.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: tally.url, "x-forwarded-for": `10.8.${url.length}.1` },
        body: JSON.stringify({ password: TEST_ENV.TALLY_OPERATOR_PASSWORD }),
      });
      const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
      expect(cookie).toMatch(/^tally_session=./);
      const variants: Record<string, string>[] = [{ cookie }, { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` }];
      for (const headers of variants) {
        const res = await fetch(tally.url + url, {
          method,
          headers: { "content-type": "application/json", origin: tally.url, ...headers },
          body: method === "GET" ? undefined : "{}",
        });
        expect(res.status).toBe(401);
        expect(await res.json()).toMatchObject({ error: "unauthorized" });
      }
    },
  );

  it("the health check is public", async () => {
    const res = await fetch(`${tally.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
  });
});
