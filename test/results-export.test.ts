// GET /api/results/export over real HTTP (run `npm run build` first): 20,000 rows streamed in many
// chunks as JSONL and as CSV, both parsed back (CSV by an independent RFC 4180 parser); content with
// commas, quotes and line breaks round-trips; formulas are defused; bad input is a 400 with a reason.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { insertJob, insertResults } from "@/lib/results/seed.test-util";
import { parseCsv } from "./csv-parse";
import { createTestDb, type TestDb } from "./db";
import { openSql } from "./sql";
import { startTally, TEST_ENV, type TallyServer } from "./tally-server";

let t: TestDb;
let tally: TallyServer;
const ROWS = 20_000;
const T0 = Date.parse("2026-11-25T00:00:00Z");
const NASTY = 'Intro, with "quotes", commas,\nand a second line\r\nand CRLF; ünïcödé ✓ — end';
const FORMULA = '=HYPERLINK("http://evil.example","click")';

beforeAll(async () => {
  t = await createTestDb();
  const sql = await openSql(t.url);
  await insertJob(sql, { id: "bulk", kind: "crawl", url: "https://bulk.example/" });
  await insertJob(sql, {
    id: "nasty",
    kind: "extract",
    url: "https://nasty.example/",
    status: "failed",
    outcome: "dead_lettered",
  });
  await insertResults(sql, { jobId: "bulk", count: ROWS, at: (i) => T0 + i * 1000 });
  await insertResults(sql, {
    jobId: "nasty",
    count: 3,
    itemKey: String,
    at: () => T0 - 60_000,
    markdown: (i) => [NASTY, FORMULA, "-1+2"][i],
    html: () => "<p>a,b</p>",
    metadata: () => ({ note: 'x,"y"\n' }),
  });
  await sql.close();
  // A short request timeout: a download that takes longer than it must still complete (the limit is
  // for a request to arrive, not for its answer to be read).
  tally = await startTally({ TALLY_REQUEST_TIMEOUT_SECONDS: "3" }, t.url);
});
afterAll(async () => {
  await tally?.stop();
  await t?.cleanup();
});

const auth = { authorization: `Bearer ${TEST_ENV.TALLY_API_TOKEN}` };

/** Reads the answer chunk by chunk, counting the chunks (a buffered answer arrives as one or two). */
async function download(query: string) {
  const res = await fetch(`${tally.url}/api/results/export?${query}`, { headers: auth });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
  return { res, text: text + decoder.decode(), chunks };
}

const jsonLine = z.looseObject({
  jobId: z.string(),
  kind: z.string(),
  itemKey: z.string(),
  markdown: z.string().nullable(),
  metadata: z.unknown(),
  createdAt: z.iso.datetime(),
});

describe("GET /api/results/export", () => {
  it("streams every row as JSONL, one object a line, as an attachment", async () => {
    const { res, text, chunks } = await download("format=jsonl");
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="tally-results-\d{8}T\d{6}Z\.jsonl"$/,
    );
    expect(res.headers.get("content-length")).toBeNull();
    expect(chunks).toBeGreaterThan(10);
    expect(text.endsWith("\n")).toBe(true);
    const rows = text
      .trimEnd()
      .split("\n")
      .map((l) => jsonLine.parse(JSON.parse(l)));
    expect(rows).toHaveLength(ROWS + 3);
    expect(new Set(rows.map((r) => `${r.jobId}/${r.itemKey}`)).size).toBe(ROWS + 3);
    const nasty = rows.filter((r) => r.jobId === "nasty");
    expect(nasty.map((r) => r.markdown)).toEqual([NASTY, FORMULA, "-1+2"]);
    expect(nasty[0].metadata).toEqual({ note: 'x,"y"\n' });
  });

  it("streams CSV with one header row, RFC 4180 quoting and formulas defused", async () => {
    const { res, text, chunks } = await download("format=csv");
    expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="tally-results-\d{8}T\d{6}Z\.csv"$/);
    expect(chunks).toBeGreaterThan(10);
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual([
      "jobId",
      "kind",
      "itemKey",
      "url",
      "status",
      "format",
      "markdown",
      "html",
      "metadata",
      "errorCode",
      "errorMessage",
      "tokensCharged",
      "createdAt",
      "bodyError",
    ]);
    expect(records).toHaveLength(ROWS + 3);
    expect(records.every((r) => r.length === header.length)).toBe(true);
    const col = (name: string) => header.indexOf(name);
    const nasty = records.filter((r) => r[col("jobId")] === "nasty");
    expect(nasty.map((r) => r[col("markdown")])).toEqual([NASTY, `'${FORMULA}`, "'-1+2"]);
    expect(nasty[0][col("html")]).toBe("<p>a,b</p>");
    expect(JSON.parse(nasty[0][col("metadata")])).toEqual({ note: 'x,"y"\n' });
    expect(records.at(-1)?.[col("createdAt")]).toBe(new Date(T0 + (ROWS - 1) * 1000).toISOString());
  });

  it("a slow reader gets the whole export, read page by page, past the request timeout", async () => {
    const res = await fetch(`${tally.url}/api/results/export?format=jsonl&kind=crawl`, { headers: auth });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const started = Date.now();
    let newlines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let lines = 0;
      for (const b of value) if (b === 10) lines++;
      newlines += lines;
      // Paced by rows, not by chunks (Node 24's fetch hands over fewer, larger chunks than Node 20's):
      // 20,000 rows take at least 4 s to read, past the 3 s request timeout.
      await new Promise((r) => setTimeout(r, 10 + lines / 5));
    }
    expect(Date.now() - started).toBeGreaterThan(3500);
    expect(newlines).toBe(ROWS);
  });

  it("applies since/until and the Jobs list's filters", async () => {
    const lines = async (q: string) => (await download(`format=jsonl&${q}`)).text.split("\n").filter(Boolean).length;
    const since = new Date(T0 + 100_000).toISOString();
    const until = new Date(T0 + 200_000).toISOString();
    expect(await lines(`since=${since}&until=${until}`)).toBe(100);
    expect(await lines("kind=extract")).toBe(3);
    expect(await lines("status=failed&outcome=dead_lettered")).toBe(3);
    expect(await lines("q=nasty.example")).toBe(3);
    expect(await lines("q=bulk&kind=extract")).toBe(0);
  });

  it.each([
    ["format=xml", "jsonl or csv"],
    ["since=not-a-date", "date"],
    ["since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z", "after until"],
    ["from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "after to"],
    ["status=exploded", "status"],
  ])("answers 400 JSON with a reason for %s", async (query, reason) => {
    const res = await fetch(`${tally.url}/api/results/export?${query}`, { headers: auth });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/json/);
    const body = z.object({ error: z.string(), message: z.string() }).parse(await res.json());
    expect(body.message).toContain(reason);
  });
});
