// The jobs API over real HTTP against Tally's server (run `npx next build` first), with a simulator as
// the platform: filters, keyset pagination, bad input answered 400 with a reason, 404, platform
// refusals mapped to 4xx, and a submitted job carried to "stored" by the server's own worker.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { processJobItem } from "@/lib/jobs/process-job";
import { enqueue } from "@/lib/queue";
import { API_KEY, startSim, waitFor } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let sim: Awaited<ReturnType<typeof startSim>>;
let tally: TallyServer;

const KINDS = ["extract", "batch", "crawl"] as const;
const STATUSES = ["completed", "failed", "processing"] as const;
const OUTCOMES = ["stored", "dead_lettered", "pending"] as const;
const SEEDED = 130;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb();
  // Several jobs share each createdAt so the (createdAt, id) tie-break is exercised.
  const base = Date.now() - 10 * 60_000;
  await db().job.createMany({
    data: Array.from({ length: SEEDED }, (_, i) => ({
      id: `seed-${String(i).padStart(3, "0")}`,
      kind: KINDS[i % 3],
      platformStatus: STATUSES[i % 3],
      outcome: OUTCOMES[i % 3],
      url: `https://shop.example/item/${i}`,
      createdAt: new Date(base + Math.floor(i / 4) * 1000),
    })),
  });
  tally = await startTally(
    { SCRAPER_API_BASE_URL: sim.url, GEONODE_SCRAPER_API_KEY: API_KEY, TALLY_WORKER: "on", TALLY_API_RPS: "1000" },
    t.url,
  );
});
afterAll(async () => {
  await tally?.stop();
  await sim?.close();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };
async function api(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(tally.url + path, {
    method: init.method ?? "GET",
    headers: { ...auth, ...(init.body !== undefined ? { "content-type": "application/json" } : {}), ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  return { status: res.status, json: z.record(z.string(), z.unknown()).parse(await res.json()) };
}

const pageSchema = z.object({
  items: z.array(
    z.looseObject({
      jobId: z.string(),
      kind: z.string(),
      status: z.string(),
      outcome: z.string(),
      createdAt: z.string(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
const list = async (query: string) => {
  const r = await api(`/api/jobs?${query}`);
  expect(r.status).toBe(200);
  return pageSchema.parse(r.json);
};

describe("GET /api/jobs", () => {
  it("walks every page with the cursor: no duplicates, no gaps, newest first", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`limit=17${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...page.items.map((j) => j.jobId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(SEEDED / 17));
    expect(new Set(seen).size).toBe(SEEDED);
    const expected = Array.from({ length: SEEDED }, (_, i) => `seed-${String(i).padStart(3, "0")}`).sort((a, b) =>
      a < b ? 1 : -1,
    );
    expect(seen).toEqual(expected);
  });

  it("defaults to 50 and filters by status, outcome, kind and q (id or URL)", async () => {
    const first = await list("");
    expect(first.items).toHaveLength(50);
    expect(first.nextCursor).not.toBeNull();
    const failed = await list("status=failed&limit=200");
    expect(failed.items.length).toBe(43);
    expect(
      failed.items.every((j) => j.status === "failed" && j.outcome === "dead_lettered" && j.kind === "batch"),
    ).toBe(true);
    expect((await list("outcome=stored&kind=extract&limit=200")).items.length).toBe(44);
    expect((await list("outcome=stored&kind=batch")).items).toHaveLength(0);
    expect((await list("q=seed-007")).items.map((j) => j.jobId)).toEqual(["seed-007"]);
    // URL search is by prefix (an index range), with or without the scheme
    const twelves = [
      "seed-012",
      "seed-120",
      "seed-121",
      "seed-122",
      "seed-123",
      "seed-124",
      "seed-125",
      "seed-126",
      "seed-127",
      "seed-128",
      "seed-129",
    ];
    expect((await list("q=shop.example/item/12")).items.map((j) => j.jobId).sort()).toEqual(twelves);
    expect(
      (await list(`q=${encodeURIComponent("https://shop.example/item/12")}`)).items.map((j) => j.jobId).sort(),
    ).toEqual(twelves);
    expect((await list("q=item/12")).items).toHaveLength(0);
    expect((await list("status=&q=")).items).toHaveLength(50);
  });

  it.each([
    ["cursor=not-a-cursor", "cursor"],
    [`cursor=${Buffer.from('{"t":"x"}').toString("base64url")}`, "cursor"],
    ["limit=500", "at most 200"],
    ["limit=0", "at least 1"],
    ["limit=ten", "number"],
    ["status=done", "status"],
    ["kind=map", "kind"],
  ])("answers 400 with a reason for %s", async (query, reason) => {
    const r = await api(`/api/jobs?${query}`);
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("bad_request");
    expect(String(r.json.message)).toContain(reason);
  });
});

describe("GET /api/jobs/:jobId", () => {
  it("answers the job with its platform status and outcome, or 404", async () => {
    const r = await api("/api/jobs/seed-004");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      jobId: "seed-004",
      kind: "batch",
      status: "failed",
      outcome: "dead_lettered",
      events: [],
    });
    const missing = await api("/api/jobs/nope");
    expect(missing.status).toBe(404);
    expect(missing.json.error).toBe("not_found");
  });
});

describe("POST /api/jobs", () => {
  it.each([
    [{ url: "https://example.com" }, "kind"],
    [{ kind: "extract" }, "url"],
    [{ kind: "extract", url: "ftp://example.com" }, "url"],
    [{ kind: "batch", url: "https://example.com" }, "urls"],
    [{ kind: "crawl", url: "https://example.com", depth: 99 }, "depth"],
    [{ kind: "extract", url: "https://example.com", colour: "red" }, "colour"],
    ["{not json", "JSON"],
  ])("answers 400 for %j", async (body, reason) => {
    const r = await api("/api/jobs", { method: "POST", body });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json)).toContain(reason);
  });

  it("maps the platform's refusals: 422 keeps its detail, 402 stays a 4xx", async () => {
    const invalid = await api("/api/jobs", {
      method: "POST",
      body: { kind: "batch", urls: ["https://example.com/ok", "not a url"], ignore_invalid_urls: false },
    });
    expect(invalid.status, tally.output().slice(-4000)).toBe(422);
    expect(invalid.json).toMatchObject({ error: "platform_rejected", details: [{ loc: ["body", "urls", 1] }] });
    const broke = await api("/api/jobs", {
      method: "POST",
      body: { kind: "extract", url: "https://example.com/payment-required" },
    });
    expect(broke.status).toBe(402);
    expect(String(broke.json.message)).toContain("Insufficient");
  });

  it("submits, records, and the server's worker stores the job once its event arrives", async () => {
    const r = await api("/api/jobs", {
      method: "POST",
      body: { kind: "extract", url: "https://example.com/api-happy", formats: ["markdown"] },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: "extract", status: "queued", outcome: "pending" });
    const jobId = z.string().parse(r.json.jobId);
    expect((await api(`/api/jobs/${jobId}`)).json).toMatchObject({ origin: "submitted", outcome: "pending" });
    // What the receiver does when the platform's webhook comes in.
    await enqueue(db(), processJobItem({ jobId, eventType: "extract_completed", source: "webhook" }));
    await waitFor("stored", async () => (await api(`/api/jobs/${jobId}`)).json.outcome === "stored", 10_000);
    expect((await list(`q=${jobId}`)).items[0]).toMatchObject({ jobId, status: "completed", outcome: "stored" });
  });

  it("a platform that fails: 502 for a failed call, then 503 with Retry-After once it counts as down (nothing sent); a submit goes through again once it answers", async () => {
    const submit = () =>
      fetch(`${tally.url}/api/jobs`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ kind: "extract", url: "https://example.com/platform-down" }),
      });
    expect((await sim.control("/_sim/config", { serverErrorRate: 1 })).status).toBe(200);
    try {
      const answers: Array<{ status: number; error: unknown; retryAfter: string | null }> = [];
      // Five calls in a row answered 5xx (the server's own calls may count among them) open the breaker.
      for (let i = 0; i < 6 && answers.at(-1)?.status !== 503; i++) {
        const res = await submit();
        answers.push({
          status: res.status,
          error: (await res.json()).error,
          retryAfter: res.headers.get("retry-after"),
        });
      }
      const down = answers.at(-1)!;
      expect(down, JSON.stringify(answers)).toMatchObject({ status: 503, error: "platform_unavailable" });
      expect(Number(down.retryAfter)).toBeGreaterThanOrEqual(1);
      for (const a of answers.slice(0, -1))
        expect(a).toMatchObject({ status: 502, error: "upstream_error", retryAfter: null });
    } finally {
      expect((await sim.control("/_sim/config", { serverErrorRate: 0 })).status).toBe(200);
    }
    // Up again: once the pause is over, a submit is the probe, and it is accepted.
    let again = 0;
    for (const end = Date.now() + 15_000; again !== 201 && Date.now() < end;) {
      again = (await submit()).status;
      if (again !== 201) await new Promise((r) => setTimeout(r, 250));
    }
    expect(again).toBe(201);
  });
});

describe("item failures in a stored batch (issue 24, point 7)", () => {
  const stored = async (urls: string[]) => {
    const r = await api("/api/jobs", { method: "POST", body: { kind: "batch", urls } });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const jobId = z.string().parse(r.json.jobId);
    await enqueue(db(), processJobItem({ jobId, eventType: "batch_completed", source: "webhook" }));
    await waitFor("stored", async () => (await api(`/api/jobs/${jobId}`)).json.outcome === "stored", 10_000);
    return jobId;
  };
  const resultsSchema = z.object({
    items: z.array(z.looseObject({ url: z.string().nullable(), status: z.string(), errorCode: z.string().nullable() })),
  });

  it("GET /api/jobs/{id} says N of M items failed; results?status=failed lists them; the overview counts them", async () => {
    const overviewItems = async () =>
      z
        .object({ ledger: z.object({ items: z.object({ total: z.number(), failed: z.number() }) }) })
        .parse((await api("/api/overview")).json).ledger.items;
    const before = await overviewItems();

    // item-fail-NNN: the simulator fails that item with the target status NNN.
    const urls = ["https://a.example/1", "https://a.example/item-fail-404/x", "https://a.example/2"];
    const mixed = await stored(urls);
    expect((await api(`/api/jobs/${mixed}`)).json.items).toEqual({ total: 3, stored: 2, failed: 1 });
    const failed = await api(`/api/jobs/${mixed}/results?status=failed`);
    expect(failed.status).toBe(200);
    const items = resultsSchema.parse(failed.json).items;
    expect(items.map((i) => [i.url, i.status])).toEqual([[urls[1], "failed"]]);
    expect(items[0]?.errorCode).toBeTruthy();

    const clean = await stored(["https://a.example/3", "https://a.example/4"]);
    expect((await api(`/api/jobs/${clean}`)).json.items).toEqual({ total: 2, stored: 2, failed: 0 });
    expect(resultsSchema.parse((await api(`/api/jobs/${clean}/results?status=failed`)).json).items).toEqual([]);

    const bad = await api(`/api/jobs/${mixed}/results?status=broken`);
    expect(bad.status).toBe(400);
    expect(String(bad.json.message)).toContain("status");

    // The overview's figures are cached a moment: poll until both jobs count.
    await waitFor(
      "overview items",
      async () => {
        const now = await overviewItems();
        return now.total === before.total + 5 && now.failed === before.failed + 1;
      },
      10_000,
    );
  });
});
