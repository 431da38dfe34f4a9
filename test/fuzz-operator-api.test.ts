// Property-based tests (fast-check) of the operator API's bodies and query strings, with the route
// handlers of app/api called in this process (no server: thousands of requests in seconds) against a
// real database and the simulator over HTTP as the platform. Generated bodies (valid-looking, wrong
// shapes, random JSON, NUL, huge strings, invalid UTF-8, wrong content types) for POST /api/jobs,
// POST /api/runs (JSON, text/plain and text/csv), POST /api/destinations and POST /api/dead-letters/retry;
// generated query strings and cursors (random, and real ones altered) for the GET lists. Properties:
// never a 5xx; every 4xx is JSON with an error code and a message; a refused input changes no row
// (only a failed audit entry, which every refused mutation leaves by design). A failure prints
// fast-check's seed and path to reproduce it.
import fc from "fast-check";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as auditRoute from "@/app/api/audit/route";
import * as deadLettersRoute from "@/app/api/dead-letters/route";
import * as retryRoute from "@/app/api/dead-letters/retry/route";
import * as deliveriesRoute from "@/app/api/deliveries/route";
import * as destinationsRoute from "@/app/api/destinations/route";
import * as jobsRoute from "@/app/api/jobs/route";
import * as runsRoute from "@/app/api/runs/route";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { TEST_ENV } from "./tally-server";

let t: TestDb;
let sql: TestSql;
let sim: Awaited<ReturnType<typeof startSim>>;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
    TALLY_API_RPS: "1000",
    TALLY_WORKER: "off",
    TALLY_DEMO_TRAFFIC: "off",
  });
  sql = await openSql(t.url);
});
afterAll(async () => {
  await sql?.close();
  await t?.cleanup();
  await sim?.close();
});

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, method: string, path: string, body?: Uint8Array | string, type?: string) {
  const req = new NextRequest(new URL(path, "http://tally.test"), {
    method,
    headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, ...(type ? { "content-type": type } : {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : new Uint8Array(body),
  });
  const res = await handler(req, { params: Promise.resolve({}) });
  const raw = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(raw);
  } catch {
    // asserted below
  }
  return { status: res.status, json, raw };
}

const TABLES = ["Job", "JobEvent", "Run", "RunUrl", "RunChunk", "Destination", "DeadLetter", "QueueItem"];
// One round trip: every table a refused input must leave alone, and the audit entries that succeeded.
const COUNTS = `SELECT ${TABLES.map((t) => `(SELECT COUNT(*) FROM ${t}) AS n${t}`).join(", ")},
  (SELECT COUNT(*) FROM AuditLog WHERE ok = true) AS nAuditOk`;
const rows = async () => sql.get<Record<string, number>>(COUNTS);

/** The answer to one generated request holds the properties; a refusal changed nothing. */
async function holds(
  handler: Handler,
  method: string,
  path: string,
  body?: Uint8Array | string,
  type?: string,
  expectStatus?: (status: number) => boolean,
) {
  const before = await rows();
  const r = await call(handler, method, path, body, type);
  const what = `${method} ${path} → ${r.status} ${r.raw.slice(0, 300)}`;
  expect(r.status, what).toBeLessThan(500);
  if (r.status >= 400) {
    expect(typeof r.json?.error, what).toBe("string");
    expect(typeof r.json?.message, what).toBe("string");
    expect(await rows(), what).toEqual(before);
  }
  if (expectStatus) expect(expectStatus(r.status), what).toBe(true);
  seen.add(r.status < 300 ? "2xx" : "4xx");
  return r;
}

// ---- generators -------------------------------------------------------------------------------------

const nasty = fc.constantFrom(
  "\u0000",
  "https://a.example/\u0000",
  "\ud800",
  "' OR 1=1 --",
  "<script>alert(1)</script>",
  "x".repeat(5000),
  "\u202e\u00e9\u4e2d\ud83d\ude00",
  "",
  " ",
  "-1",
  "1e308",
  "NaN",
  "null",
);
const str = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: "binary", maxLength: 20 }), nasty, nasty);
const host = fc.constantFrom("a.example", "shop.example.org", "93.184.216.34", "[2001:db8::1]", "b\u00fccher.example");
const url = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom("http", "https"), host, fc.webPath()).map(([s, h, p]) => `${s}://${h}${p}`),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      str,
      fc.webUrl(),
      fc.constantFrom(
        "ftp://a.example/",
        "http://127.0.0.1/",
        "http://169.254.169.254/latest",
        "http://2130706433/",
        "http://u:p@a.example/",
      ),
    ),
  },
);
const anyJson = fc.jsonValue({ maxDepth: 3 });
const field = fc.oneof(
  str,
  url,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(url, { maxLength: 3 }),
  anyJson,
);

/** Raw bodies that are not what any route wants: bytes, invalid UTF-8, truncated or deep JSON. */
const rawBody = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  fc.constantFrom(
    new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    new TextEncoder().encode('{"kind":"extract","url":"https://a.exa'),
    new TextEncoder().encode("[".repeat(3000) + "]".repeat(3000)),
    new TextEncoder().encode('{"url":"https://a.example/\\u0000"}'),
    new Uint8Array(Buffer.from('{"kind":"extract","url":"https://a.example/"}', "utf16le")),
  ),
);
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v) ?? "");
const jsonType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "",
  "application/x-www-form-urlencoded",
);

/** A JSON body around `shape`: its fields, sometimes with one replaced or an unknown one added. */
function around(shape: fc.Arbitrary<Record<string, unknown>>) {
  return fc.oneof(
    { weight: 3, arbitrary: shape.map(enc) },
    {
      weight: 3,
      arbitrary: fc.tuple(shape, fc.string({ maxLength: 10 }), field, fc.boolean()).map(([o, k, v, replace]) => {
        const keys = Object.keys(o);
        const key = replace && keys.length > 0 ? keys[k.length % keys.length] : k;
        return enc({ ...o, [key]: v });
      }),
    },
    { weight: 1, arbitrary: anyJson.map(enc) },
    { weight: 1, arbitrary: rawBody },
  );
}

const jobBody = around(
  fc.oneof(
    fc.record({ kind: fc.constant("extract"), url }, { requiredKeys: ["kind"] }),
    fc.record({ kind: fc.constant("batch"), urls: fc.array(url, { maxLength: 4 }) }, { requiredKeys: ["kind"] }),
    fc.record(
      { kind: fc.constant("crawl"), url, max_pages: fc.integer({ min: -5, max: 20 }) },
      { requiredKeys: ["kind"] },
    ),
    fc.record({ kind: str, url }),
  ),
);
const runBody = around(
  fc.record(
    {
      name: fc.oneof(nasty, str),
      urls: fc.array(url, { maxLength: 8 }),
      formats: fc.oneof(fc.constant(["markdown"]), fc.array(str, { maxLength: 2 })),
      renderJs: fc.oneof(fc.boolean(), str),
      batchSize: fc.oneof(fc.integer({ min: -5, max: 200 }), str),
      ignoreInvalid: fc.oneof(fc.boolean(), str),
    },
    { requiredKeys: ["urls"] },
  ),
);
const listText = fc
  .tuple(
    fc.array(
      fc.oneof(
        { weight: 6, arbitrary: url },
        { weight: 1, arbitrary: str },
        { weight: 1, arbitrary: fc.constantFrom("", "url", '"https://a.example/q,1",title') },
      ),
      { maxLength: 12 },
    ),
    fc.constantFrom("\n", "\r\n", "\r"),
    fc.boolean(),
  )
  .map(([lines, eol, bom]) => (bom ? "\uFEFF" : "") + lines.join(eol));
const runQuery = fc
  .record(
    {
      name: fc.oneof(fc.constant("a run"), str),
      batchSize: fc.oneof(fc.constantFrom("1", "50"), str),
      ignoreInvalid: fc.oneof(fc.constantFrom("true", "1", "true", "false"), str),
      renderJs: fc.oneof(fc.constantFrom("true", "0"), str),
      formats: fc.oneof(fc.constantFrom("markdown", "html", "markdown,html"), str),
    },
    { requiredKeys: [] },
  )
  .map((q) => new URLSearchParams(q as Record<string, string>).toString());
const destinationBody = around(
  fc.record(
    {
      url: fc.oneof(url, fc.constantFrom("http://localhost:1/", "http://[::1]/", "http://0.0.0.0/", "http://127.1/")),
      events: fc.oneof(
        fc.subarray(["job.stored", "job.dead_lettered", "job.cancelled", "run.completed"], { minLength: 1 }),
        fc.array(fc.constantFrom("job.stored", "job.failed", "run.completed"), { maxLength: 4 }),
        fc.array(str, { maxLength: 3 }),
      ),
      secret: fc.oneof(fc.constant("whsec_" + "QUFB".repeat(8)), str, fc.constant("whsec_********")),
    },
    { requiredKeys: ["url", "events"] },
  ),
);
const retryBody = around(
  fc.oneof(
    fc.record({ ids: fc.array(fc.oneof(fc.integer(), fc.double(), str), { maxLength: 5 }) }),
    fc.record({
      filter: fc.dictionary(
        fc.constantFrom("kind", "reason", "q", "since", "jobId", "state"),
        fc.oneof(str, fc.integer()),
      ),
      expectedCount: fc.oneof(fc.integer({ min: -2, max: 3 }), str),
    }),
  ),
);

const cursorish = fc.oneof(
  str,
  fc.base64String({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v) ?? "").toString("base64url")),
);
const query = fc
  .dictionary(
    fc.oneof(
      fc.constantFrom(
        "limit",
        "cursor",
        "status",
        "outcome",
        "kind",
        "q",
        "since",
        "from",
        "to",
        "state",
        "action",
        "actor",
        "destinationId",
        "jobId",
        "subscriptionId",
        "sort",
      ),
      fc.string({ maxLength: 6 }),
    ),
    fc.oneof(
      str,
      cursorish,
      fc.integer().map(String),
      fc.constantFrom("-1", "0", "1", "200", "201", "1e3", "0x10", "2026-13-45", "2026-01-01T00:00:00Z"),
    ),
    { maxKeys: 4 },
  )
  .map((q) => new URLSearchParams(q).toString());

// ---- the properties -----------------------------------------------------------------------------------

const RUNS = 350;
/** Which kinds of answer the current property saw: each must see acceptances and refusals both. */
const seen = new Set<string>();
beforeEach(() => seen.clear());
afterEach((ctx) => {
  if (ctx.task.result?.state !== "fail")
    expect([...seen].sort(), "generated inputs accepted and refused").toEqual(["2xx", "4xx"]);
});
const ok2xx = (s: number) => s < 300;

describe("operator API, generated bodies and queries", () => {
  it("POST /api/jobs", async () => {
    await fc.assert(
      fc.asyncProperty(jobBody, jsonType, (body, type) =>
        holds(jobsRoute.POST, "POST", "/api/jobs", body, type).then(() => undefined),
      ),
      { numRuns: RUNS },
    );
  });

  it("POST /api/runs, JSON", async () => {
    await fc.assert(
      fc.asyncProperty(runBody, (body) =>
        holds(runsRoute.POST, "POST", "/api/runs", body, "application/json").then(() => undefined),
      ),
      // Found by this property: an unpaired surrogate reached Prisma's engine and answered 500.
      { numRuns: RUNS, examples: [[enc({ name: "\ud800", urls: ["http://a.example"] })]] },
    );
  });

  it("POST /api/runs, text/plain and text/csv with generated options in the query", async () => {
    await fc.assert(
      fc.asyncProperty(
        listText,
        runQuery,
        fc.constantFrom("text/plain", "text/csv", "text/csv; charset=utf-8", "text/html"),
        async (text, q, type) => {
          await holds(runsRoute.POST, "POST", `/api/runs?${q}`, text, type);
        },
      ),
      // A NUL in the query's name: PostgreSQL cannot store it (a 500 there before the query was checked).
      { numRuns: RUNS, examples: [["https://a.example/", "name=a%00b", "text/plain"]] },
    );
  });

  it("POST /api/destinations", async () => {
    await fc.assert(
      fc.asyncProperty(destinationBody, jsonType, (body, type) =>
        holds(destinationsRoute.POST, "POST", "/api/destinations", body, type).then(() => undefined),
      ),
      // One body that must be accepted, so the 2xx half of the property is always exercised (random
      // bodies that pass every rule, the address guard included, are rare).
      {
        numRuns: RUNS,
        examples: [[enc({ url: "https://93.184.215.14/tally-hooks", events: ["job.stored"] }), "application/json"]],
      },
    );
  });

  it("POST /api/dead-letters/retry", async () => {
    await fc.assert(
      fc.asyncProperty(retryBody, jsonType, (body, type) =>
        holds(retryRoute.POST, "POST", "/api/dead-letters/retry", body, type).then(() => undefined),
      ),
      // An accepted body by name: random ones reach one in about 250 (every id a positive integer), so
      // 350 runs saw none a quarter of the time and the "accepted and refused" check failed by chance.
      { numRuns: RUNS, examples: [[enc({ ids: [1] }), "application/json"]] },
    );
  });

  it("GET lists with generated query strings and cursors, real cursors altered included", async () => {
    const lists: Array<[string, Handler]> = [
      ["/api/jobs", jobsRoute.GET],
      ["/api/runs", runsRoute.GET],
      ["/api/dead-letters", deadLettersRoute.GET],
      ["/api/deliveries", deliveriesRoute.GET],
      ["/api/audit", auditRoute.GET],
    ];
    // Real cursors: the first page of one row of each list (the runs above left rows in most).
    const real: string[] = [];
    for (const [path, handler] of lists) {
      const r = await call(handler, "GET", `${path}?limit=1`);
      expect(r.status, `${path} ${r.raw.slice(0, 200)}`).toBe(200);
      if (typeof r.json?.nextCursor === "string") real.push(r.json.nextCursor);
    }
    expect(real.length).toBeGreaterThan(1);
    const altered = fc
      .tuple(fc.constantFrom(...real), fc.nat(), fc.constantFrom("A", "_", "-", "=", "%", "\u00e9", ""))
      .map(([c, at, ch]) => {
        const i = at % c.length;
        return c.slice(0, i) + ch + c.slice(i + 1);
      });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...lists),
        query,
        fc.option(fc.oneof(altered, fc.constantFrom(...real)), { nil: undefined }),
        async ([path, handler], q, cursor) => {
          const qs = cursor === undefined ? q : `${q}&cursor=${encodeURIComponent(cursor)}`;
          await holds(handler, "GET", `${path}?${qs}`, undefined, undefined, (s) => ok2xx(s) || s === 400);
        },
      ),
      { numRuns: RUNS * 3 },
    );
    // 1,050 requests: on PostgreSQL at load 10 (both stores' suites at once, as in CI) they took over 30 s.
  }, 120_000);
});
