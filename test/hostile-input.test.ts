// Hostile input against the receiver and every operator route (discovered from app/): malformed,
// truncated and deeply nested JSON, arrays and scalars, huge strings, wrong types, invalid UTF-8,
// wrong content types, SQL and HTML fragments in every field, query parameter and path segment.
// Every answer must be a 4xx (or a success) with a reason — never a 5xx — and the server stays up.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOGIN_MAX_BODY_BYTES } from "@/lib/http";
import { createSimulator } from "@/lib/simulator";
import { routes } from "./routes";
import { openSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

const INJECT = [
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '\'; DROP TABLE "Job"; --',
  "../../etc/passwd",
];
const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
const deepObj = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const FIELDS = [
  "kind",
  "url",
  "urls",
  "since",
  "olderThanSeconds",
  "subscriptionId",
  "secret",
  "ids",
  "filter",
  "reason",
  "expectedCount",
  "password",
  "limit",
  "cursor",
  "config",
];

const BODIES: Array<[string, string | Uint8Array, string?]> = [
  ["truncated JSON", '{"kind": "extract", "url": "https://exa'],
  ["malformed JSON", "{not json}"],
  ["empty", ""],
  ["array", "[1,2,3]"],
  ["scalar number", "42"],
  ["scalar string", '"hello"'],
  ["null", "null"],
  ["deep array", deep(5000)],
  ["deep object", deepObj(3000)],
  ["huge string", JSON.stringify({ url: "https://e.com/" + "a".repeat(300_000), reason: "b".repeat(300_000) })],
  ["invalid UTF-8", new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  [
    "wrong types",
    JSON.stringify(Object.fromEntries(FIELDS.map((f, i) => [f, [5, [], {}, true, null, -1e308][i % 6]]))),
  ],
  ...INJECT.map((s): [string, string] => [
    `injection ${s}`,
    JSON.stringify(Object.fromEntries(FIELDS.map((f) => [f, f === "urls" || f === "ids" ? [s] : s]))),
  ]),
  ["form content type", "kind=extract&url=https://e.com", "application/x-www-form-urlencoded"],
  ["text content type", '{"kind":"extract"}', "text/plain"],
];

const QUERIES = [
  "?status=' OR 1=1 --&outcome=<script>&kind=%00&limit=-1&cursor=%%%&q=' UNION SELECT * FROM Subscription --",
  "?limit=abc&cursor=eyJub3QiOiJhIGN1cnNvciJ9&since=not-a-date&from=zzz&to=99999999999999999999",
  "?limit=1000000&status=" + "x".repeat(10_000),
  "?kind[]=1&kind[]=2&outcome=stored&outcome=pending",
];

let tally: TallyServer;
let simClose: () => Promise<void>;
const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

beforeAll(async () => {
  const sim = await createSimulator({ mode: "test", seed: 7 }).listen(0);
  simClose = sim.close;
  tally = await startTally({ GEONODE_SCRAPER_API_KEY: "k", SCRAPER_API_BASE_URL: sim.url, TALLY_DEMO_TRAFFIC: "off" });
});
afterAll(async () => {
  await tally?.stop();
  await simClose?.();
});

async function send(method: string, url: string, body?: string | Uint8Array, type = "application/json") {
  const headers = { ...auth, origin: tally.url, "content-type": type };
  try {
    const res = await fetch(tally.url + url, {
      method,
      headers,
      body: method === "GET" || body === undefined ? undefined : typeof body === "string" ? body : new Uint8Array(body),
      redirect: "manual",
    });
    const text = await res.text();
    return { status: res.status, text };
  } catch (err) {
    // server.ts answers an oversized sign-in body from its headers and closes without reading it: a
    // client still writing may see the connection cut (EPIPE, reset) instead of the answer. The answer
    // comes from the headers alone, so ask again with the same declared length and no body.
    const bytes = body === undefined ? 0 : typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
    if (url !== "/api/auth/login" || bytes <= LOGIN_MAX_BODY_BYTES) throw err;
    return headersOnly(method, url, { ...headers, "content-length": String(bytes) });
  }
}

function headersOnly(method: string, url: string, headers: Record<string, string>) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(tally.url + url, { method, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    req.flushHeaders(); // and never the body
  });
}

describe("hostile input", () => {
  const operatorRoutes = [...new Set(INJECT.concat("x1").flatMap((fill) => routes(fill).map((r) => JSON.stringify(r))))]
    .map((s) => JSON.parse(s) as { method: string; url: string })
    .filter((r) => !r.url.startsWith("/webhooks") && r.url !== "/api/auth/logout");

  it.each(operatorRoutes.filter((r) => r.method !== "GET"))(
    "$method $url: no 5xx for any body",
    async ({ method, url }) => {
      for (const [name, body, type] of BODIES) {
        const r = await send(method, url, body, type);
        expect(r.status, `${name} → ${r.status} ${r.text.slice(0, 200)}`).toBeLessThan(500);
        if (r.status >= 400) expect(r.text, `${name}: a 4xx says why`).toMatch(/"(error|message|reason)"/);
      }
    },
  );

  it.each(operatorRoutes.filter((r) => r.method === "GET"))("GET $url: no 5xx for any query", async ({ url }) => {
    for (const q of QUERIES) {
      const r = await send("GET", url + q);
      expect(r.status, `${q} → ${r.status} ${r.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it("the receiver answers 4xx to every unsigned or badly signed body and stores nothing from them", async () => {
    for (const path of [
      "/webhooks/geonode",
      "/webhooks/geonode/x1",
      `/webhooks/geonode/${encodeURIComponent(INJECT[0])}`,
    ]) {
      for (const [name, body, type] of BODIES) {
        for (const sig of [undefined, "deadbeef", "sha256=" + "0".repeat(64), "' OR 1=1"]) {
          const res = await fetch(tally.url + path, {
            method: "POST",
            headers: { "content-type": type ?? "application/json", ...(sig ? { "x-webhook-signature": sig } : {}) },
            body: typeof body === "string" ? body : new Uint8Array(body),
          });
          expect(res.status, `${path} ${name}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${path} ${name}`).toBeLessThan(500);
        }
      }
    }
    const sql = await openSql(tally.dbUrl);
    const n = async (q: string) => ((await sql.get(q)) as { n: number }).n;
    expect(await n("SELECT COUNT(*) n FROM Receipt")).toBe(0);
    expect(await n("SELECT COUNT(*) n FROM QueueItem WHERE payload LIKE '%webhook%'")).toBe(0);
    expect(await n("SELECT COUNT(*) n FROM InboundDelivery WHERE jobId IS NOT NULL OR eventType IS NOT NULL")).toBe(0);
    expect(await n("SELECT COUNT(*) n FROM InboundDelivery")).toBeGreaterThan(100);
    await sql.close();
  });

  it("the server is still up and healthy", async () => {
    const res = await fetch(`${tally.url}/api/health`);
    expect(res.status).toBe(200);
  });
});
