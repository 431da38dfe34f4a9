// The Jobs page's keyset pagination: every job exactly once across pages, in either order, even when
// many share a timestamp (ties broken by id); filters, time range and bad query values in words.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listJobsPage, parseJobsSearch, type JobsPageQuery } from "@/lib/jobs/list";
import { db } from "@/lib/db";
import { createTestDb, type TestDb } from "./db";

let t: TestDb;
const base = new Date("2026-11-29T12:00:00.000Z");
const at = (s: number) => new Date(base.getTime() + s * 1000);

beforeAll(async () => {
  t = await createTestDb();
  // 30 jobs on only 4 distinct timestamps, ids inserted out of order.
  const ids = Array.from({ length: 30 }, (_, i) => `job-${String((i * 7) % 30).padStart(2, "0")}`);
  await db().job.createMany({
    data: ids.map((id, i) => ({
      id,
      kind: i % 3 === 0 ? "batch" : "extract",
      outcome: i % 2 ? "stored" : "pending",
      platformStatus: i % 2 ? "completed" : "processing",
      url: `https://example.com/page/${i}`,
      createdAt: at(i % 4),
    })),
  });
});
afterAll(async () => {
  await t?.cleanup();
});

async function walk(params: Record<string, string>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const { query, problems } = parseJobsSearch({ ...params, ...(cursor ? { cursor } : {}) });
    expect(problems).toEqual([]);
    const page = await listJobsPage(query);
    seen.push(...page.items.map((j) => j.id));
    if (!page.nextCursor) return seen;
    cursor = page.nextCursor;
  }
  throw new Error("pagination did not end");
}

const all = async (where = {}) =>
  (await db().job.findMany({ where, select: { id: true, createdAt: true } })).map((j) => ({
    id: j.id,
    t: j.createdAt.getTime(),
  }));

describe("jobs keyset pagination", () => {
  it("newest first: every job once, no gaps, ties ordered by id", async () => {
    const seen = await walk({ limit: "4" });
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    const expected = (await all()).sort((a, b) => b.t - a.t || (a.id < b.id ? 1 : -1)).map((j) => j.id);
    expect(seen).toEqual(expected);
  });

  it("oldest first: the same set in the opposite order", async () => {
    const newest = await walk({ limit: "7" });
    const oldest = await walk({ limit: "7", sort: "oldest" });
    expect(oldest).toEqual([...newest].reverse());
  });

  it("filters and a time range page the same way", async () => {
    const seen = await walk({
      limit: "2",
      outcome: "pending",
      kind: "extract",
      from: at(1).toISOString(),
      to: at(3).toISOString(),
    });
    const expected = (await all({ outcome: "pending", kind: "extract", createdAt: { gte: at(1), lt: at(3) } })).map(
      (j) => j.id,
    );
    expect(seen.sort()).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(2);
  });

  it("a row inserted between pages neither repeats nor shifts the later pages", async () => {
    const first = await listJobsPage(parseJobsSearch({ limit: "5" }).query);
    await db().job.create({ data: { id: "job-new", kind: "extract", createdAt: at(10) } });
    const { query } = parseJobsSearch({ limit: "100", cursor: first.nextCursor ?? "" });
    const rest = (await listJobsPage(query)).items.map((j) => j.id);
    expect(rest).not.toContain("job-new");
    expect([...first.items.map((j) => j.id), ...rest]).toHaveLength(30);
    await db().job.delete({ where: { id: "job-new" } });
  });

  it("searches by exact job id, or by the start of the URL with or without its scheme", async () => {
    const urls = async (q: string) => (await listJobsPage(parseJobsSearch({ q }).query)).items.map((j) => j.url).sort();
    expect((await listJobsPage(parseJobsSearch({ q: "job-07" }).query)).items.map((j) => j.id)).toEqual(["job-07"]);
    expect(await urls("https://example.com/page/12")).toEqual(["https://example.com/page/12"]);
    expect(await urls("example.com/page/2")).toEqual(
      [
        "https://example.com/page/2",
        ...[20, 21, 22, 23, 24, 25, 26, 27, 28, 29].map((i) => `https://example.com/page/${i}`),
      ].sort(),
    );
    expect(await urls("example.com")).toHaveLength(30);
    expect(await urls("no-such-thing")).toEqual([]);
  });

  it("bad query values are reported in words and dropped; the rest of the filter still applies", () => {
    const { query, params, problems } = parseJobsSearch({
      outcome: "stored",
      status: "exploded",
      from: "yesterday-ish",
      limit: "0",
      cursor: "garbage",
      sort: "sideways",
      extra: "x",
    });
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toMatch(/status: must be one of/);
    expect(problems.join("\n")).toMatch(/from: must be a date and time/);
    const expected: Partial<JobsPageQuery> = { outcome: "stored", limit: 50, sort: "newest" };
    expect(query).toMatchObject(expected);
    expect(query.status).toBeUndefined();
    expect(query.cursor).toBeUndefined();
    expect(params).toEqual({ outcome: "stored" });
  });
});
