import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/collections/route";
import * as runsRoute from "@/app/api/runs/route";
import { API_KEY, startSim } from "@/lib/simulator/test-harness.test-util";
import { createTestDb, type TestDb } from "./db";
import { openSql, type TestSql } from "./sql";
import { TEST_ENV } from "./tally-server";

// Issue 47's first probe: `q~p~p~p~p~p` (11 characters) ran past 30 s on an 826-byte page, on the
// thread that also answers the receiver. A selector that can cost a power of the page is refused when
// a run or a collection is saved: a 400 that names the field and why, and nothing saved.

let t: TestDb;
let sql: TestSql;
let sim: Awaited<ReturnType<typeof startSim>>;

beforeAll(async () => {
  sim = await startSim();
  t = await createTestDb({
    SCRAPER_API_BASE_URL: sim.url,
    GEONODE_SCRAPER_API_KEY: API_KEY,
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

async function post(handler: Handler, path: string, body: unknown) {
  const req = new NextRequest(new URL(path, "http://tally.test"), {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const res = await handler(req, { params: Promise.resolve({}) });
  return { status: res.status, json: (await res.json()) as { error?: string; message?: string } };
}

const counts = () =>
  sql.get<{ runs: number; urls: number; collections: number }>(
    `SELECT (SELECT COUNT(*) FROM Run) AS runs, (SELECT COUNT(*) FROM RunUrl) AS urls, (SELECT COUNT(*) FROM Collection) AS collections`,
  );

describe("exponential selectors are refused at save", () => {
  const urls = ["https://shop.example/1", "https://shop.example/2"];

  it("POST /api/runs: 400 naming checks.mustContain.0.selector and why; no run, no URL", async () => {
    const before = await counts();
    const r = await post(runsRoute.POST as Handler, "/api/runs", {
      urls,
      checks: { mustContain: [{ selector: "q~p~p~p~p~p" }] },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe("bad_request");
    expect(r.json.message).toMatch(/checks\.mustContain\.0\.selector/);
    expect(r.json.message).toMatch(/too costly to evaluate: the selector has 5 sibling combinators/);
    expect(await counts()).toEqual(before);
  });

  it("POST /api/collections: 400 for :has() holding combinators; nothing saved", async () => {
    const before = await counts();
    const r = await post(collectionsRoute.POST as Handler, "/api/collections", {
      name: "shop",
      urls,
      checks: { mustNotContain: [{ text: "captcha" }, { selector: "body:has(div ~ p ~ p)" }] },
    });
    expect(r.status).toBe(400);
    expect(r.json.message).toMatch(/checks\.mustNotContain\.1\.selector/);
    expect(r.json.message).toMatch(/:has\(\) holds a combinator/);
    expect(await counts()).toEqual(before);
  });

  it("the plausible h2~p is accepted (the judging budget guards it at run time)", async () => {
    const r = await post(runsRoute.POST as Handler, "/api/runs", {
      urls,
      checks: { mustContain: [{ selector: "h2~p" }] },
    });
    expect(r.status).toBe(201);
  });
});
