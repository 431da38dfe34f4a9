// Pages carry a nonce-based Content-Security-Policy and the usual security headers; the receiver
// and the API do not need the CSP but keep the other headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let tally: TallyServer;
beforeAll(async () => {
  tally = await startTally();
});
afterAll(async () => {
  await tally?.stop();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

describe("security headers", () => {
  it("a page has a strict CSP whose nonce is on every inline script", async () => {
    const res = await fetch(`${tally.url}/settings`, { headers: auth });
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    const html = await res.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  });

  it("every answer carries nosniff, frame denial, no referrer and no X-Powered-By", async () => {
    for (const path of ["/login", "/api/health", "/webhooks/geonode"]) {
      const res = await fetch(tally.url + path, {
        method: path.startsWith("/webhooks") ? "POST" : "GET",
        headers: auth,
      });
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-powered-by")).toBeNull();
    }
  });

  it("a fresh nonce per request", async () => {
    const a = (await fetch(`${tally.url}/login`)).headers.get("content-security-policy");
    const b = (await fetch(`${tally.url}/login`)).headers.get("content-security-policy");
    expect(a).not.toEqual(b);
  });
});
