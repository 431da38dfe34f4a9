// Walks every page and route handler under app/ and asserts none answers without a session or token,
// except the login, the health check and the receiver. A new route left open makes this fail.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pages as discoverPages, routes as discoverRoutes } from "./routes";
import { startTally, type TallyServer } from "./tally-server";

const PUBLIC = new Set(["/login", "/api/health", "/api/auth/login"]);
const pages = discoverPages();
const routes = discoverRoutes();

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
      const variants: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { cookie: "tally_session=forged.jwt.value" }];
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

  it("the health check is public", async () => {
    const res = await fetch(`${tally.url}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: "ok" });
  });
});
